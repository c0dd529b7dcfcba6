import { existsSync } from 'node:fs';
import { mkdtemp, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ArchiveWriter } from './archive-writer.js';
import { BACKUP_FORMAT, MANIFEST_NAME, type BackupManifest, type BackupStoreKind } from './manifest.js';
import { TAR_END } from './tar.js';

/**
 * A folder of files kept beside the store (the patch blobs, the sidecars: each domain's storage module names its
 * own), archived under `<name>/<file>`.
 */
export interface FileFolder {
  name: string;
  dir: string;
  /** The names its committed files have (never a path, nor a write in progress). */
  file: RegExp;
}

/** What one backup holds, and how to take the store's consistent copy. */
export interface BackupSource {
  store: BackupStoreKind;
  /**
   * Writes a consistent copy of the store into the (existing, empty) scratch folder it is given and returns the
   * archive entries it made (`db/data.mdb`, or `db/postgres.dump`) with their files.
   */
  snapshot: (scratch: string) => Promise<{ name: string; path: string }[]>;
  /** The config file (config.yaml). */
  configPath: string;
  /** Folders of files the store's records name (LMDB only: on PostgreSQL they live in the database). */
  folders: FileFolder[];
  spoolVersion: string;
}

export interface BackupOptions {
  /** The archive to write; it exists only once complete (`<file>.partial` until then). */
  file: string;
  now?: () => Date;
  /** Called after each entry is written (tests use it to kill the process mid-archive). */
  afterEntry?: (name: string) => void;
}

/** Whether an archive entry's name is a committed file of one of the folders: `<folder>/<file>`, nothing deeper. */
export function isFolderFile(entry: string, folders: readonly Pick<FileFolder, 'name' | 'file'>[]): boolean {
  const [folder, file, ...deeper] = entry.split('/');
  return deeper.length === 0 && file !== undefined && folders.some((f) => f.name === folder && f.file.test(file));
}

/**
 * Writes one backup archive (docs/backups.md): the store's snapshot, the config, the folders' files, then the
 * manifest, into `<file>.partial`, fsynced and renamed into place. A failure removes the partial file; a kill leaves
 * it, and nothing named `<file>` until the archive is whole.
 */
export async function createBackup(source: BackupSource, opts: BackupOptions): Promise<BackupManifest> {
  const partial = `${opts.file}.partial`;
  const scratch = await mkdtemp(join(dirname(opts.file), '.spool-backup-'));
  const out = await open(partial, 'w');
  try {
    const created = (opts.now ?? (() => new Date()))();
    const writer = new ArchiveWriter(out, Math.floor(created.getTime() / 1000), opts.afterEntry);
    for (const entry of await source.snapshot(scratch)) await addFile(writer, entry.name, entry.path);
    await addFile(writer, 'config.yaml', source.configPath);
    for (const folder of source.folders)
      for (const name of await folderFiles(folder))
        await addFile(writer, `${folder.name}/${name}`, join(folder.dir, name), true);
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      spoolVersion: source.spoolVersion,
      created: created.toISOString(),
      store: source.store,
      entries: writer.entries,
    };
    await writer.add(MANIFEST_NAME, Buffer.from(JSON.stringify(manifest, null, 2)));
    await out.write(TAR_END);
    await out.sync();
    await out.close();
    await rename(partial, opts.file);
    await syncDir(dirname(opts.file));
    return manifest;
  } catch (err) {
    await out.close().catch(() => undefined);
    await rm(partial, { force: true });
    throw err;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Adds one file; a folder's file removed since it was listed (a repair's blob dropped) is left out. */
async function addFile(writer: ArchiveWriter, name: string, path: string, mayVanish = false): Promise<void> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (err) {
    if (mayVanish && (err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  await writer.addFile(name, path, size);
}

/** The committed files of a folder (a `.tmp` is a write in progress and belongs to no record yet). */
async function folderFiles(folder: FileFolder): Promise<string[]> {
  if (!existsSync(folder.dir)) return [];
  return (await readdir(folder.dir)).filter((n) => folder.file.test(n)).sort();
}

export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
