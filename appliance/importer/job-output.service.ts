import { mkdir, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../logging/logger.js';
import { strmLine, type StrmTarget } from './strm.js';

/** import.import_strategy: how a completed job is handed to download clients (docs/sabnzbd.md). */
export type ImportStrategy = 'symlink' | 'strm' | 'none';

export interface OutputSettings {
  strategy: ImportStrategy;
  /** import.import_dir: the local folder holding one folder per job (symlink and strm). */
  importDir: string;
  /** mount_path: where the virtual tree is mounted (Spool's FUSE mount or an rclone mount at the same path). */
  mountPath: string;
  /** sabnzbd.complete_dir: the virtual folder holding /<category dir>/<job>/. */
  vfsCompleteDir: string;
  /** How a .strm file reaches the WebDAV server (strm only). */
  strm: StrmTarget;
}

/** How long a check of a job's files may wait on the mount (an external mount can hang). */
const READABLE_TIMEOUT_MS = 3000;

/**
 * The import strategies. `symlink`: `<import_dir>/<category dir>/<job>/` holds absolute symlinks to the files on
 * the mount, so the arr moves symlinks into its library (never content) and its `rm -r` of the job folder only
 * unlinks links. `strm`: the same folder holds `.strm` files with a WebDAV URL. `none`: the job folder on the
 * mount itself. The folder is the SABnzbd history's `storage`; its parent (the category folder) always exists,
 * because the arrs' remote path check looks for it.
 */
export class JobOutputService {
  private readonly verified = new Set<string>();

  constructor(
    private readonly settings: () => OutputSettings,
    private readonly logger: Logger,
  ) {}

  /** What SABnzbd calls complete_dir: the folder the arrs see category folders in. */
  completeRoot(): string {
    const s = this.settings();
    return s.strategy === 'none' ? onMount(s.mountPath, s.vfsCompleteDir) : s.importDir;
  }

  /** Makes sure `<complete root>/<dir>` exists for each category dir (local folders only; the VFS has its own). */
  async ensureCategoryFolders(dirs: readonly string[]): Promise<void> {
    const s = this.settings();
    if (s.strategy === 'none' || !s.importDir) return;
    for (const dir of new Set(dirs)) {
      await mkdir(path.join(s.importDir, dir), { recursive: true }).catch((err: Error) =>
        this.logger.warn('category folder could not be created', {
          dir: path.join(s.importDir, dir),
          error: err.message,
        }),
      );
    }
  }

  /**
   * Publishes a job written at `jobDir` (a VFS path) with its `files` (VFS paths); returns the storage folder.
   * A folder left by an earlier attempt is replaced (it holds only links or .strm files Spool wrote).
   */
  async publish(jobDir: string, files: readonly string[]): Promise<string> {
    const s = this.settings();
    if (s.strategy === 'none') return onMount(s.mountPath, jobDir);
    const folder = this.localFolder(s, jobDir);
    await rm(folder, { recursive: true, force: true });
    await mkdir(folder, { recursive: true });
    for (const file of files) {
      const rel = path.posix.relative(jobDir, file);
      if (rel.startsWith('..') || path.posix.isAbsolute(rel)) continue;
      const at = path.join(folder, rel);
      await mkdir(path.dirname(at), { recursive: true });
      if (s.strategy === 'symlink') await symlink(onMount(s.mountPath, file), at);
      else await writeFile(`${at}.strm`, await strmLine(s.strm, file));
    }
    return folder;
  }

  /**
   * Removes a job's local folder (SABnzbd delete with del_files). Only a folder under import_dir is touched, and
   * `rm` unlinks symlinks without following them, so the content on the mount is never reached from here.
   */
  async removeFolder(storage: string | null | undefined): Promise<void> {
    const s = this.settings();
    if (!storage || !s.importDir || !isStrictlyWithin(storage, s.importDir)) return;
    // Never a category folder itself: the arrs' health check needs it to exist.
    if (path.dirname(path.resolve(storage)) === path.resolve(s.importDir)) return;
    this.verified.delete(storage);
    await rm(storage, { recursive: true, force: true });
  }

  /**
   * Whether the job reads where the arr will look: the folder exists and each of its files (through a symlink,
   * the file on the mount) can be stat'ed. Remembered once true, so a history poll re-checks only new jobs.
   */
  async readable(storage: string | null | undefined): Promise<boolean> {
    if (!storage) return false;
    if (this.verified.has(storage)) return true;
    const ok = await withTimeout(allFilesReadable(storage), READABLE_TIMEOUT_MS).catch(() => false);
    if (ok) {
      if (this.verified.size > 100_000) this.verified.clear();
      this.verified.add(storage);
    }
    return ok;
  }

  private localFolder(s: OutputSettings, jobDir: string): string {
    const rel = path.posix.relative(s.vfsCompleteDir, jobDir);
    if (!s.importDir || rel.startsWith('..') || rel === '') throw new Error(`No import folder for ${jobDir}`);
    return path.join(s.importDir, ...rel.split('/'));
  }
}

function onMount(mountPath: string, vfsPath: string): string {
  return path.posix.join(mountPath || '/', vfsPath);
}

function isStrictlyWithin(child: string, parent: string): boolean {
  const rel = path.relative(path.resolve(parent), path.resolve(child));
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** Every entry resolves (a symlink to a file on the mount) and at least one file is there. */
async function allFilesReadable(dir: string): Promise<boolean> {
  const info = await stat(dir);
  if (!info.isDirectory()) return info.isFile();
  let files = 0;
  for (const entry of await readdir(dir)) {
    const full = path.join(dir, entry);
    const s = await stat(full); // follows a symlink to the file on the mount; a dangling one throws
    if (s.isFile()) files++;
    else if (s.isDirectory() && (await allFilesReadable(full))) files++;
  }
  return files > 0;
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timed out')), ms);
    timer.unref();
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
