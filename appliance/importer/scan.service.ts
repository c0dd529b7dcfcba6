import { opendir, readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { AppError } from '../errors/app-error.js';
import { validationFailed } from '../errors/field-errors.js';
import type { Logger } from '../logging/logger.js';
import { NzbBlobStore } from './nzb-blob.store.js';
import { MAX_NZB_BYTES } from './nzb-upload.js';
import type { QueueService } from './queue.service.js';

/** Spec §3 Scan status. */
export interface ScanStatus {
  status: 'idle' | 'scanning' | 'canceling';
  path: string;
  files_found: number;
  files_added: number;
  current_file: string;
  last_error: string | null;
}

/** Deeper than any real NZB library; stops a pathological tree (or a bind-mount loop) from running forever. */
const MAX_DEPTH = 32;

/**
 * Manual directory scan: walks a directory tree for `.nzb` files and queues each one not seen before (by the
 * sha256 of its bytes, so a renamed or moved copy is still recognised). One scan at a time; cancellable between
 * files. Symbolic links to directories are not followed (they are how loops happen).
 */
export class ScanService {
  private state: ScanStatus = {
    status: 'idle',
    path: '',
    files_found: 0,
    files_added: 0,
    current_file: '',
    last_error: null,
  };
  private running: Promise<void> | undefined;

  constructor(
    private readonly queue: QueueService,
    private readonly logger: Logger,
  ) {}

  status(): ScanStatus {
    return { ...this.state };
  }

  async start(rawPath: unknown): Promise<ScanStatus> {
    const path = typeof rawPath === 'string' ? rawPath.trim() : '';
    if (!path) throw validationFailed([{ field: 'path', message: 'Path is required' }], 'Path is required');
    if (!isAbsolute(path)) {
      throw validationFailed(
        [{ field: 'path', message: 'Path must be absolute (start with /)' }],
        'Path must be absolute (start with /)',
      );
    }
    if (this.state.status !== 'idle')
      throw new AppError('IN_PROGRESS', 'A scan is already running; cancel it or wait for it to finish');
    const dir = resolve(path);
    const info = await stat(dir).catch(() => undefined);
    if (!info?.isDirectory()) {
      throw validationFailed([{ field: 'path', message: `Not a directory: ${dir}` }], `Not a directory: ${dir}`);
    }
    this.state = { status: 'scanning', path: dir, files_found: 0, files_added: 0, current_file: '', last_error: null };
    this.running = this.walk(dir, 0)
      .catch((err: unknown) => {
        this.state.last_error = err instanceof Error ? err.message : String(err);
        this.logger.warn('scan failed', { path: dir, error: this.state.last_error });
      })
      .finally(() => {
        this.logger.info('scan finished', { path: dir, found: this.state.files_found, added: this.state.files_added });
        this.state.status = 'idle';
        this.state.current_file = '';
        this.running = undefined;
      });
    return this.status();
  }

  cancel(): ScanStatus {
    if (this.state.status === 'scanning') this.state.status = 'canceling';
    return this.status();
  }

  /** Resolves when the scan in progress (if any) has ended. */
  async finished(): Promise<void> {
    await this.running;
  }

  private get stopping(): boolean {
    return this.state.status === 'canceling';
  }

  private async walk(dir: string, depth: number): Promise<void> {
    if (depth > MAX_DEPTH || this.stopping) return;
    let handle;
    try {
      handle = await opendir(dir);
    } catch (err) {
      this.state.last_error = `Cannot read ${dir}: ${(err as Error).message}`;
      return;
    }
    const subdirs: string[] = [];
    const files: string[] = [];
    for await (const entry of handle) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) subdirs.push(full);
      else if (entry.isFile() && /\.nzb$/i.test(entry.name)) files.push(full);
    }
    for (const file of files.sort()) {
      if (this.stopping) return;
      await this.consider(file);
    }
    for (const sub of subdirs.sort()) await this.walk(sub, depth + 1);
  }

  private async consider(file: string): Promise<void> {
    this.state.files_found++;
    this.state.current_file = file;
    try {
      const info = await stat(file);
      if (info.size > MAX_NZB_BYTES) throw new Error('larger than 100 MB');
      const bytes = await readFile(file);
      if (this.queue.blobs.seenAs(NzbBlobStore.hash(bytes)) !== undefined) return;
      await this.queue.enqueue({ nzb: bytes, nzbPath: file });
      this.state.files_added++;
    } catch (err) {
      this.state.last_error = `${file}: ${(err as Error).message}`;
    }
  }
}
