/**
 * `spool backup [--data <dir>] [--out <file>]` and `spool restore <archive> [--data <dir>]` (docs/backups.md),
 * reached through `node main.js backup|restore ...`. Exit 0 on success, 1 on a failure or a refused archive (the
 * current data untouched), 2 on wrong arguments. Restore expects Spool stopped.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  backupSourceOf,
  checkStagedStore,
  createBackup,
  restoreBackup,
  RestoreRefused,
  restoreTargetOf,
  recoverInterruptedRestore,
  snapshotStoreAt,
  type InstallFiles,
} from './backup/index.js';
import { databaseLoader, snapshotPostgres } from './app/backup-restore-pg.js';
import { dataFolders } from './app/storage-domains.js';
import { ConfigService, defaultsFor } from './config/index.js';
import { createLogger } from './logging/logger.js';

const USAGE = 'usage: spool backup [--data <data dir>] [--out <archive>] | spool restore <archive> [--data <data dir>]';

export async function runBackupCommand(verb: 'backup' | 'restore', args: string[]): Promise<number> {
  let values: { data?: string; out?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      allowPositionals: verb === 'restore',
      options: { data: { type: 'string' }, out: { type: 'string' } },
    }));
  } catch (err) {
    return usage(err instanceof Error ? err.message : String(err));
  }
  const dataDir = resolve(values.data ?? (process.env.SPOOL_DATA || './data'));
  const print = (line: string) => process.stdout.write(`${line}\n`);
  try {
    if (verb === 'backup') {
      const file = resolve(values.out ?? join(dataDir, 'backups', `spool-${stamp(new Date())}.tar`));
      print(`backup written: ${await backupInstall(dataDir, file)}`);
      return 0;
    }
    if (positionals.length !== 1) return usage('restore takes exactly one archive');
    const out = await restoreInstall(dataDir, resolve(positionals[0]!));
    print(`safety backup of the previous state: ${out.safetyBackup ?? 'none (there was no store)'}`);
    print(`restored the backup of ${out.created} (Spool ${out.version}); start Spool to serve it`);
    return 0;
  } catch (err) {
    const msg = err instanceof RestoreRefused ? `refused: ${err.message}; nothing was changed` : String(err);
    process.stderr.write(`spool ${verb}: ${msg}\n`);
    return 1;
  }
}

/** Backs up the install in `dataDir` into `file`; returns the archive's path. */
export async function backupInstall(dataDir: string, file: string): Promise<string> {
  const files = await locate(dataDir);
  if (!files.databaseUrl && !existsSync(join(files.dbDir, 'data.mdb')))
    throw new Error(`${dataDir} has no LMDB store at ${files.dbDir}`);
  await mkdir(dirname(file), { recursive: true });
  const snapshot = (target: string) =>
    files.databaseUrl
      ? snapshotPostgres(files.databaseUrl, target, createLogger('spool', 'warn'))
      : snapshotStoreAt(dirname(files.dbDir), target);
  await createBackup(backupSourceOf(files, snapshot, spoolVersion()), { file });
  return file;
}

/** Restores `archive` over the install in `dataDir`, a safety backup of the current state first. */
export async function restoreInstall(
  dataDir: string,
  archive: string,
  hooks: { afterMove?: (live: string) => void } = {},
) {
  // a restore of this data dir cut short during its swap is undone first (the previous files back)
  await recoverInterruptedRestore(join(dataDir, '.restore-staging'));
  const files = await locate(dataDir);
  const hasStore = Boolean(files.databaseUrl) || existsSync(join(files.dbDir, 'data.mdb'));
  const safety = join(dataDir, 'backups', `pre-restore-${stamp(new Date())}.tar`);
  const out = await restoreBackup({
    archive,
    stagingDir: join(dataDir, '.restore-staging'),
    target: restoreTargetOf(files, databaseLoader(files.databaseUrl, createLogger('spool', 'warn'))),
    spoolVersion: spoolVersion(),
    checkStore: checkStagedStore,
    log: (message) => process.stdout.write(`${message}\n`),
    ...hooks,
    safetyBackup: async () => (hasStore ? backupInstall(dataDir, safety) : null),
  });
  return { safetyBackup: out.safetyBackup, created: out.manifest.created, version: out.manifest.spoolVersion };
}

/** The install's files (config, LMDB folder, patches, sidecars) and database URL; the config is never written. */
async function locate(dataDir: string): Promise<InstallFiles> {
  const configPath = process.env.SPOOL_CONFIG ? resolve(process.env.SPOOL_CONFIG) : join(dataDir, 'config.yaml');
  const metadata = existsSync(configPath)
    ? (await ConfigService.open({ dataDir, configPath, env: {}, logger: createLogger('spool') })).get().metadata
    : defaultsFor(dataDir).metadata;
  const databaseSetting = metadata.database_url ?? '';
  return {
    configPath,
    dbDir: join(resolve(dataDir, metadata.root_path), 'db'),
    rootSetting: metadata.root_path,
    databaseSetting,
    databaseUrl: process.env.SPOOL_DATABASE_URL || databaseSetting,
    folders: dataFolders(dataDir),
  };
}

function spoolVersion(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const root of [resolve(here, '..'), resolve(here, '..', '..')]) {
    const file = join(root, 'package.json');
    if (existsSync(file)) return String((JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version);
  }
  return '0.0.0';
}

function stamp(d: Date): string {
  return d.toISOString().replace(/[:.]/g, '-');
}

function usage(problem: string): number {
  process.stderr.write(`spool: ${problem}\n${USAGE}\n`);
  return 2;
}
