import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, open, readdir, readFile, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { BACKUP_FORMAT, MANIFEST_NAME, type BackupManifest, type ManifestEntry } from './manifest.js';
import { TAR_END, tarHeader, tarPadding } from './tar.js';

/** What one backup holds, and how to take the store's consistent copy. */
export interface BackupSource {
  /** Writes a consistent, compacted copy of the LMDB environment into the (existing, empty) folder it is given. */
  snapshot: (target: string) => Promise<void>;
  /** The config file (config.yaml). */
  configPath: string;
  /** The PAR2 patch blobs (`<data dir>/patches`); a missing folder is an empty one. */
  patchDir: string;
  spoolVersion: string;
}

export interface BackupOptions {
  /** The archive to write; it exists only once complete (`<file>.partial` until then). */
  file: string;
  now?: () => Date;
  /** Called after each entry is written (tests use it to kill the process mid-archive). */
  afterEntry?: (name: string) => void;
}

/**
 * Writes one backup archive (docs/backups.md): the LMDB snapshot, the config, the patch blobs, then the manifest,
 * into `<file>.partial`, fsynced and renamed into place. A failure removes the partial file; a kill leaves it,
 * and nothing named `<file>` until the archive is whole.
 */
export async function createBackup(source: BackupSource, opts: BackupOptions): Promise<BackupManifest> {
  const partial = `${opts.file}.partial`;
  const scratch = await mkdtemp(join(dirname(opts.file), '.spool-backup-'));
  const out = await open(partial, 'w');
  try {
    const created = (opts.now ?? (() => new Date()))();
    const writer = new ArchiveWriter(out, Math.floor(created.getTime() / 1000), opts.afterEntry);
    await source.snapshot(scratch);
    await writer.add('db/data.mdb', await readFile(join(scratch, 'data.mdb')));
    await writer.add('config.yaml', await readFile(source.configPath));
    for (const name of await patchBlobs(source.patchDir))
      await writer.add(`patches/${name}`, await readFile(join(source.patchDir, name)));
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      spoolVersion: source.spoolVersion,
      created: created.toISOString(),
      store: 'lmdb',
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

/** Appends entries and records each one's size and sha256 for the manifest. */
class ArchiveWriter {
  readonly entries: ManifestEntry[] = [];

  constructor(
    private readonly out: FileHandle,
    private readonly mtime: number,
    private readonly afterEntry?: (name: string) => void,
  ) {}

  async add(name: string, data: Buffer): Promise<void> {
    await this.out.write(tarHeader(name, data.length, this.mtime));
    await this.out.write(data);
    await this.out.write(tarPadding(data.length));
    if (name !== MANIFEST_NAME)
      this.entries.push({ name, size: data.length, sha256: createHash('sha256').update(data).digest('hex') });
    this.afterEntry?.(name);
  }
}

/** The committed blobs (`*.bin`); a `.tmp` is a repair still writing and belongs to no record yet. */
async function patchBlobs(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  return (await readdir(dir)).filter((n) => n.endsWith('.bin') && basename(n) === n).sort();
}

export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
