import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, open, rm, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isFolderFile, type FileFolder } from './backup.service.js';
import { MANIFEST_NAME, parseManifest, RestoreRefused, type BackupManifest, type ManifestEntry } from './manifest.js';
import { parseTarHeader, TAR_BLOCK, tarPadding } from './tar.js';

/** The names an archive may hold besides the manifest and the folders' files: the store, the config. */
const ENTRY_NAME = /^(db\/data\.mdb|db\/postgres\.dump|config\.yaml)$/;
const MANIFEST_MAX = 64 * 1024 * 1024;
const CHUNK = 1024 * 1024;

/** An archive unpacked into a staging folder laid out like a data dir, every entry checked against its manifest. */
export interface StagedArchive {
  manifest: BackupManifest;
  dir: string;
}

/**
 * Unpacks `archive` into `dir` (emptied first) one entry at a time, hashing as it writes, and checks it whole:
 * every header's checksum, known names only, the manifest last with a readable format and a version not newer than
 * this one, each entry's size and sha256 as the manifest says, none missing or extra. A file is one of `folders`'
 * (the install's, from its storage modules). Any failure is a
 * RestoreRefused and removes `dir`; nothing outside it is written.
 */
export async function stageArchive(
  archive: string,
  dir: string,
  spoolVersion: string,
  folders: readonly Pick<FileFolder, 'name' | 'file'>[],
): Promise<StagedArchive> {
  if (!existsSync(archive)) throw new RestoreRefused(`${archive} does not exist`);
  await rm(dir, { recursive: true, force: true });
  const fh = await open(archive, 'r');
  try {
    const { manifestBytes, found } = await unpack(fh, dir, folders);
    const manifest = parseManifest(manifestBytes, spoolVersion);
    checkAgainstManifest(manifest, found);
    return { manifest, dir };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    if (err instanceof RestoreRefused) throw err;
    throw new RestoreRefused(err instanceof Error ? err.message : String(err));
  } finally {
    await fh.close();
  }
}

async function unpack(
  fh: FileHandle,
  dir: string,
  folders: readonly Pick<FileFolder, 'name' | 'file'>[],
): Promise<{ manifestBytes: Buffer; found: ManifestEntry[] }> {
  const found: ManifestEntry[] = [];
  const total = (await fh.stat()).size;
  let at = 0;
  let manifestBytes: Buffer | null = null;
  for (;;) {
    if (at + TAR_BLOCK > total) throw new Error('the archive is cut short: it has no end blocks');
    const block = Buffer.alloc(TAR_BLOCK);
    await fh.read(block, 0, TAR_BLOCK, at);
    const header = parseTarHeader(block, at);
    if (!header) break;
    const { name, size } = header;
    if (at + TAR_BLOCK + size > total) throw new Error(`the archive is cut short: entry ${name} is incomplete`);
    if (manifestBytes) throw new RestoreRefused('the archive is damaged: an entry follows its manifest');
    if (name === MANIFEST_NAME) {
      if (size > MANIFEST_MAX) throw new RestoreRefused('the archive is damaged: its manifest is too large');
      manifestBytes = Buffer.alloc(size);
      await fh.read(manifestBytes, 0, size, at + TAR_BLOCK);
    } else {
      if (!ENTRY_NAME.test(name) && !isFolderFile(name, folders))
        throw new RestoreRefused(`the archive is damaged: entry ${name} is not expected`);
      if (found.some((e) => e.name === name)) throw new RestoreRefused(`the archive is damaged: ${name} twice`);
      found.push({ name, size, sha256: await copyOut(fh, at + TAR_BLOCK, size, join(dir, name)) });
    }
    at += TAR_BLOCK + size + tarPadding(size).length;
  }
  if (!manifestBytes) throw new RestoreRefused('the archive is incomplete: its manifest, written last, is missing');
  return { manifestBytes, found };
}

/** Copies `size` bytes at `from` into `path` (fsynced), returning their sha256. */
async function copyOut(fh: FileHandle, from: number, size: number, path: string): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  const out = await open(path, 'w');
  const hash = createHash('sha256');
  const buf = Buffer.alloc(Math.min(CHUNK, Math.max(size, 1)));
  try {
    for (let done = 0; done < size;) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, size - done), from + done);
      if (bytesRead === 0) throw new Error('the archive is cut short');
      const part = buf.subarray(0, bytesRead);
      hash.update(part);
      await out.write(part);
      done += bytesRead;
    }
    await out.sync();
  } finally {
    await out.close();
  }
  return hash.digest('hex');
}

function checkAgainstManifest(manifest: BackupManifest, found: ManifestEntry[]): void {
  if (found.length !== manifest.entries.length)
    throw new RestoreRefused('the archive is damaged: its entries do not match its manifest');
  for (const want of manifest.entries) {
    const got = found.find((e) => e.name === want.name);
    if (!got) throw new RestoreRefused(`the archive is damaged: entry ${want.name} is missing`);
    if (got.size !== want.size || got.sha256 !== want.sha256)
      throw new RestoreRefused(`the archive is damaged: entry ${want.name} fails its sha256 checksum`);
  }
  // An LMDB archive has its environment; a PostgreSQL one its dump, its backend-neutral LMDB copy, or both.
  const stores = manifest.store === 'lmdb' ? ['db/data.mdb'] : ['db/postgres.dump', 'db/data.mdb'];
  if (!found.some((e) => stores.includes(e.name)) || !found.some((e) => e.name === 'config.yaml'))
    throw new RestoreRefused('the archive is incomplete: it lacks the store or the config');
}
