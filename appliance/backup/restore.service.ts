import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { syncDir, type FileFolder } from './backup.service.js';
import { RestoreRefused, type BackupManifest } from './manifest.js';
import { pinNodeLocal, type NodeLocalStore } from './pin-node-local.js';
import { stageArchive } from './stage.js';
import { pgToolInstalled } from './pg-dump.js';
import { chooseStoreCopy, DUMP_ENTRY, type StoreCopyChoice } from './store-copies.js';

/** The live install's files a restore replaces, and how its store takes the staged copy. */
export interface RestoreTarget {
  /** `<metadata.root_path>/db`: the LMDB folder (on PostgreSQL, the node's replica and local state). */
  dbDir: string;
  /** This install's node-local store keys; the restored config keeps them (pin-node-local.ts). */
  local: NodeLocalStore;
  configPath: string;
  /** The folders beside the store (the patch blobs, the sidecars), each from its domain's storage module. */
  folders: readonly FileFolder[];
  /**
   * PostgreSQL installs only: replaces the database's contents with the staged archive's store (a dump restored,
   * or an LMDB copy moved in as `spool migrate` moves it). Absent on LMDB, where the db folder is swapped.
   */
  loadDatabase?: (stagedDir: string, manifest: BackupManifest, choice: StoreCopyChoice) => Promise<void>;
}

export interface RestoreOptions {
  archive: string;
  /** Where the archive is unpacked and checked; removed afterwards. */
  stagingDir: string;
  target: RestoreTarget;
  spoolVersion: string;
  /** Opens the staged copy of the store the restore takes and reads every record; throws when one is not readable. */
  checkStore: (stagedDir: string, manifest: BackupManifest, choice: StoreCopyChoice) => Promise<void>;
  /** Whether pg_restore runs here (default: asks the host, backup/pg-dump.ts). */
  pgRestoreInstalled?: () => boolean;
  /** Called after each place of the swap was moved in (tests kill the process there: the journal's proof). */
  afterMove?: (live: string) => void;
  /** Told which copy of the store the restore takes, and why (the log). */
  log?: (message: string, fields: Record<string, unknown>) => void;
  /** Backs up the current state before anything is replaced; returns the archive's path, or null when there is none. */
  safetyBackup: () => Promise<string | null>;
}

/** A restore checked and staged, its safety backup written: `swap` puts it in place (with the store closed). */
export interface PreparedRestore {
  manifest: BackupManifest;
  /** Which copy of the store it takes (store-copies.ts). */
  choice: StoreCopyChoice;
  safetyBackup: string | null;
  /** Moves the staged files in; returns how to keep them or put the previous ones back. */
  swap(): Promise<SwappedRestore>;
  /** Drops the staged files (a restore not carried out). */
  discard(): Promise<void>;
  /** The swap or the start into it failed and the previous state was put back (set by whoever records the restore). */
  failed?: (reason: string) => Promise<void>;
}

export interface SwappedRestore {
  /** The restored state serves: drop the previous files. */
  keep(): Promise<void>;
  /** The restored state did not start: put the previous files back. */
  undo(): Promise<void>;
}

/**
 * Prepares a restore (docs/backups.md): unpacks and checks the archive whole (headers, manifest, version, every
 * entry's sha256, every record of the store readable) before touching anything, then writes a safety backup of the
 * current state. A refused archive leaves the current data as it was.
 */
export async function prepareRestore(opts: RestoreOptions): Promise<PreparedRestore> {
  const { stagingDir: dir, target } = opts;
  const { manifest } = await stageArchive(opts.archive, dir, opts.spoolVersion, target.folders);
  const discard = () => rm(dir, { recursive: true, force: true });
  try {
    const into = target.loadDatabase ? 'postgres' : 'lmdb';
    const choice = chooseStoreCopy(manifest, into, opts.pgRestoreInstalled ?? (() => pgToolInstalled('pg_restore')));
    opts.log?.('restore: the store comes from ' + choice.why, { archive: opts.archive, into, copy: choice.copy });
    const config = join(dir, 'config.yaml');
    await writeFile(config, pinNodeLocal(await readFile(config), target.local), { flush: true });
    await opts.checkStore(dir, manifest, choice).catch((err: unknown) => {
      throw new RestoreRefused(`the archive's store is not readable: ${err instanceof Error ? err.message : err}`);
    });
    const safetyBackup = await opts.safetyBackup();
    return {
      manifest,
      choice,
      safetyBackup,
      swap: () => swapIn(dir, manifest, choice, target, opts.afterMove),
      discard,
    };
  } catch (err) {
    await discard();
    throw err;
  }
}

/** Prepares, swaps and keeps in one go: `spool restore`, with Spool stopped. */
export async function restoreBackup(
  opts: RestoreOptions,
): Promise<{ manifest: BackupManifest; safetyBackup: string | null }> {
  const prepared = await prepareRestore(opts);
  try {
    const swapped = await prepared.swap();
    await swapped.keep();
  } finally {
    await prepared.discard();
  }
  return { manifest: prepared.manifest, safetyBackup: prepared.safetyBackup };
}

type Place = readonly [staged: string, live: string];

/** What the swap's journal holds: each place, and whether its live side existed before (so undo removes or puts back). */
interface Journal {
  places: { staged: string; live: string; had: boolean }[];
}

/** The swap's journal, beside the staging folder (`<data dir>/.restore-staging.swap.json`). */
export const swapJournalOf = (stagingDir: string) => `${stagingDir}.swap.json`;

async function swapIn(
  dir: string,
  manifest: BackupManifest,
  choice: StoreCopyChoice,
  target: RestoreTarget,
  afterMove?: (live: string) => void,
): Promise<SwappedRestore> {
  // On PostgreSQL the database takes the store (the patches and sidecars of an LMDB archive go with it); only the
  // config file is swapped. On LMDB the store's folder and the files beside it are.
  const places: Place[] = [[join(dir, 'config.yaml'), target.configPath]];
  if (!target.loadDatabase) {
    await rm(join(dir, DUMP_ENTRY), { force: true }); // a PostgreSQL archive's dump: LMDB takes its neutral copy
    places.unshift([join(dir, 'db'), target.dbDir]);
    for (const folder of target.folders) {
      await mkdir(join(dir, folder.name), { recursive: true });
      places.push([join(dir, folder.name), folder.dir]);
    }
  }
  await target.loadDatabase?.(dir, manifest, choice);
  const journal = swapJournalOf(dir);
  const entries = places.map(([staged, live]) => ({ staged, live, had: existsSync(live) }));
  await writeFile(journal, JSON.stringify({ places: entries } satisfies Journal), { flush: true });
  await syncDir(dirname(journal));
  const moved: Place[] = [];
  try {
    for (const place of places) {
      await moveIn(place);
      moved.push(place);
      afterMove?.(place[1]);
    }
  } catch (err) {
    await moveBack(moved);
    await rm(journal, { force: true });
    throw err;
  }
  return {
    keep: async () => {
      // the journal goes first: from here a kill leaves the restored files, never a mix
      await rm(journal, { force: true });
      await syncDir(dirname(journal));
      for (const [, live] of places) await rm(`${live}.replaced`, { recursive: true, force: true });
    },
    undo: async () => {
      await moveBack(places);
      await rm(journal, { force: true });
    },
  };
}

/**
 * Puts the previous files back after a swap that was cut short (a kill -9, a power cut between its renames, or
 * before the restored app was kept): run at start before the config is read (supervisor.ts, `spool restore`).
 * Follows the swap's journal: each place moved in goes back to what it was (removed, where there was nothing).
 * Returns whether there was a swap to undo. Idempotent: a kill during the undo is undone again at the next start.
 */
export async function recoverInterruptedRestore(stagingDir: string): Promise<boolean> {
  const journal = swapJournalOf(stagingDir);
  if (!existsSync(journal)) return false;
  const { places } = JSON.parse(await readFile(journal, 'utf8')) as Journal;
  for (const { staged, live, had } of [...places].reverse()) {
    if (existsSync(`${live}.replaced`)) {
      await rm(live, { recursive: true, force: true });
      await rename(`${live}.replaced`, live);
      await syncDir(dirname(live));
    } else if (!had && !existsSync(staged)) await rm(live, { recursive: true, force: true });
  }
  await rm(stagingDir, { recursive: true, force: true });
  await rm(journal, { force: true });
  return true;
}

async function moveIn([staged, live]: Place): Promise<void> {
  await rm(`${live}.replaced`, { recursive: true, force: true });
  if (existsSync(live)) await rename(live, `${live}.replaced`);
  await mkdir(dirname(live), { recursive: true });
  await rename(staged, live);
  await syncDir(dirname(live));
}

async function moveBack(places: Place[]): Promise<void> {
  for (const [, live] of [...places].reverse()) {
    await rm(live, { recursive: true, force: true });
    if (existsSync(`${live}.replaced`)) await rename(`${live}.replaced`, live);
  }
}
