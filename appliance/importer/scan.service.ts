import { opendir, readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { AppError } from '../errors/app-error.js';
import { validationFailed } from '../errors/field-errors.js';
import type { Logger } from '../logging/logger.js';
import { nzbHash } from './nzb-pack.js';
import { MAX_NZB_BYTES } from './nzb-upload.js';
import type { QueueService } from './queue.service.js';
import type { ScanStatus } from './queue.wire.js';

/** Deeper than any real NZB library; stops a pathological tree (or a bind-mount loop) from running forever. */
const MAX_DEPTH = 32;

/**
 * Manual directory scan: walks a directory tree for `.nzb` files and queues each one not seen before (by the
 * sha256 of its bytes, so a renamed or moved copy is still recognised). One scan at a time; cancellable between
 * files. Symbolic links are not followed (they are how loops happen, and how a walk would leave its root).
 *
 * Only directories under `import.scan_roots` may be scanned, by anyone: the scan reads files as the Spool process,
 * so an arbitrary path would let a signed-in user probe the host's directories and import whatever NZBs it finds.
 * The requested path and every directory the walk enters are resolved (symlinks, `..`) before the check.
 */
export class ScanService {
  private state: ScanStatus = {
    status: 'idle',
    path: '',
    files_found: 0,
    files_added: 0,
    files_skipped: 0,
    current_file: '',
    last_error: null,
  };
  private running: Promise<void> | undefined;

  constructor(
    private readonly queue: QueueService,
    private readonly logger: Logger,
    /** import.scan_roots, read at each start so a change applies to the next scan. */
    private readonly roots: () => readonly string[],
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
    const roots = await this.realRoots();
    const real = await realpath(dir).catch(() => undefined);
    if (real !== undefined && !insideAny(real, roots)) {
      const message = `Path must be inside a scan root (import.scan_roots): ${this.roots().join(', ') || 'none set'}`;
      throw validationFailed([{ field: 'path', message }], message);
    }
    const info = real === undefined ? undefined : await stat(real).catch(() => undefined);
    if (!info?.isDirectory()) {
      throw validationFailed([{ field: 'path', message: `Not a directory: ${dir}` }], `Not a directory: ${dir}`);
    }
    this.state = {
      status: 'scanning',
      path: dir,
      files_found: 0,
      files_added: 0,
      files_skipped: 0,
      current_file: '',
      last_error: null,
    };
    this.running = this.walk(real as string, 0, roots)
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

  /** The roots as real paths; a root that does not exist (yet) admits nothing. */
  private async realRoots(): Promise<string[]> {
    const real = await Promise.all(this.roots().map((r) => realpath(resolve(r)).catch(() => undefined)));
    return real.filter((r): r is string => r !== undefined);
  }

  private async walk(dir: string, depth: number, roots: string[]): Promise<void> {
    if (depth > MAX_DEPTH || this.stopping) return;
    let handle;
    try {
      // A directory swapped for a symlink since it was listed must not take the walk out of the roots.
      if (!insideAny(await realpath(dir), roots)) return;
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
    for (const sub of subdirs.sort()) await this.walk(sub, depth + 1, roots);
  }

  private async consider(file: string): Promise<void> {
    this.state.files_found++;
    this.state.current_file = file;
    try {
      const info = await stat(file);
      if (info.size > MAX_NZB_BYTES) throw new Error('larger than 100 MB');
      const bytes = await readFile(file);
      if ((await this.queue.seenAs(nzbHash(bytes))) !== undefined) {
        this.state.files_skipped++;
        return;
      }
      await this.queue.enqueue({ nzb: bytes, nzbPath: file });
      this.state.files_added++;
    } catch (err) {
      this.state.last_error = `${file}: ${(err as Error).message}`;
    }
  }
}

function insideAny(path: string, roots: readonly string[]): boolean {
  return roots.some((root) => {
    const rel = relative(root, path);
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  });
}
