import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { syncDir } from './backup.service.js';
import { pinRootPath } from './pin-root-path.js';
import { MANIFEST_NAME, parseManifest, RestoreRefused, type BackupManifest } from './manifest.js';
import { readTar, type TarEntry } from './tar.js';

/** Where the restored files go: the live install's LMDB folder, config file and patch folder. */
export interface RestoreTarget {
  /** `<metadata.root_path>/db`. */
  dbDir: string;
  /** This install's `metadata.root_path` as its config writes it; the restored config keeps it (pin-root-path.ts). */
  rootSetting: string;
  configPath: string;
  patchDir: string;
}

export interface RestoreOptions {
  archive: string;
  target: RestoreTarget;
  spoolVersion: string;
  /** Opens the staged LMDB folder and reads it through; throws when it is not a readable store. */
  checkStore: (dbDir: string) => Promise<void>;
  /** Backs up the current state before anything is replaced; returns the archive's path, or null when there is none. */
  safetyBackup: () => Promise<string | null>;
}

export interface RestoreOutcome {
  manifest: BackupManifest;
  safetyBackup: string | null;
}

const ENTRY_NAME = /^(db\/data\.mdb|config\.yaml|patches\/[A-Za-z0-9_-][A-Za-z0-9._-]*\.bin)$/;

/**
 * Restores a backup (docs/backups.md): checks the archive whole (headers, manifest, version, every entry's sha256,
 * the store readable) before touching anything, then writes a safety backup of the current state, then swaps the
 * restored LMDB folder, config and patches in. A refused archive leaves the current data as it was.
 */
export async function restoreBackup(opts: RestoreOptions): Promise<RestoreOutcome> {
  const { manifest, files } = await verifiedArchive(opts.archive, opts.spoolVersion);
  const staged = stagingPaths(opts.target);
  await rm(staged.dbDir, { recursive: true, force: true });
  await rm(staged.patchDir, { recursive: true, force: true });
  try {
    await mkdir(staged.dbDir, { recursive: true });
    await mkdir(staged.patchDir, { recursive: true });
    files.set('config.yaml', pinRootPath(files.get('config.yaml')!, opts.target.rootSetting));
    for (const [name, data] of files) await writeFile(stagedPathOf(staged, name), data, { flush: true });
    await opts.checkStore(staged.dbDir).catch((err: unknown) => {
      throw new RestoreRefused(`the archive's store is not readable: ${err instanceof Error ? err.message : err}`);
    });
    const safetyBackup = await opts.safetyBackup();
    await swapIn(staged, opts.target);
    return { manifest, safetyBackup };
  } finally {
    await rm(staged.dbDir, { recursive: true, force: true });
    await rm(staged.patchDir, { recursive: true, force: true });
    await rm(staged.configPath, { force: true });
  }
}

/** Reads the archive and checks every entry against the manifest; a RestoreRefused says what is wrong. */
export async function verifiedArchive(
  archive: string,
  spoolVersion: string,
): Promise<{ manifest: BackupManifest; files: Map<string, Buffer> }> {
  if (!existsSync(archive)) throw new RestoreRefused(`${archive} does not exist`);
  let entries: TarEntry[];
  try {
    entries = readTar(await readFile(archive));
  } catch (err) {
    throw new RestoreRefused(err instanceof Error ? err.message : String(err));
  }
  const last = entries.at(-1);
  if (last?.name !== MANIFEST_NAME)
    throw new RestoreRefused('the archive is incomplete: its manifest, written last, is missing');
  const manifest = parseManifest(last.data, spoolVersion);
  const files = new Map(entries.slice(0, -1).map((e) => [e.name, e.data] as const));
  if (files.size !== manifest.entries.length)
    throw new RestoreRefused('the archive is damaged: its entries do not match its manifest');
  for (const want of manifest.entries) {
    const data = files.get(want.name);
    if (!data || !ENTRY_NAME.test(want.name))
      throw new RestoreRefused(`the archive is damaged: entry ${want.name} is missing or not expected`);
    if (data.length !== want.size || createHash('sha256').update(data).digest('hex') !== want.sha256)
      throw new RestoreRefused(`the archive is damaged: entry ${want.name} fails its sha256 checksum`);
  }
  if (!files.has('db/data.mdb') || !files.has('config.yaml'))
    throw new RestoreRefused('the archive is incomplete: it lacks the store or the config');
  return { manifest, files };
}

function stagingPaths(t: RestoreTarget): RestoreTarget {
  return {
    rootSetting: t.rootSetting,
    dbDir: `${t.dbDir}-restoring`,
    configPath: `${t.configPath}.restoring`,
    patchDir: `${t.patchDir}.restoring`,
  };
}

function stagedPathOf(staged: RestoreTarget, name: string): string {
  if (name === 'config.yaml') return staged.configPath;
  if (name === 'db/data.mdb') return join(staged.dbDir, 'data.mdb');
  return join(staged.patchDir, name.slice('patches/'.length));
}

/** Moves the current files aside, the staged ones in, then drops the old ones (kept in the safety backup). */
async function swapIn(staged: RestoreTarget, target: RestoreTarget): Promise<void> {
  const keys = ['dbDir', 'configPath', 'patchDir'] as const;
  for (const k of keys) {
    await rm(`${target[k]}.replaced`, { recursive: true, force: true });
    if (existsSync(target[k])) await rename(target[k], `${target[k]}.replaced`);
    await mkdir(dirname(target[k]), { recursive: true });
    await rename(staged[k], target[k]);
    await syncDir(dirname(target[k]));
  }
  for (const k of keys) await rm(`${target[k]}.replaced`, { recursive: true, force: true });
}
