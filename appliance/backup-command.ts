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
import { checkLmdbReadable, createBackup, restoreBackup, RestoreRefused, snapshotStoreAt } from './backup/index.js';
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
  const paths = await locate(dataDir);
  if (!existsSync(join(paths.dbDir, 'data.mdb'))) throw new Error(`${dataDir} has no LMDB store at ${paths.dbDir}`);
  await mkdir(dirname(file), { recursive: true });
  const snapshot = (target: string) => snapshotStoreAt(dirname(paths.dbDir), target);
  await createBackup({ ...paths, snapshot, spoolVersion: spoolVersion() }, { file });
  return file;
}

/** Restores `archive` over the install in `dataDir`, a safety backup of the current state first. */
export async function restoreInstall(dataDir: string, archive: string) {
  const target = await locate(dataDir);
  const hasStore = existsSync(join(target.dbDir, 'data.mdb'));
  const safety = join(dataDir, 'backups', `pre-restore-${stamp(new Date())}.tar`);
  const out = await restoreBackup({
    archive,
    target,
    spoolVersion: spoolVersion(),
    checkStore: checkLmdbReadable,
    safetyBackup: async () => (hasStore ? backupInstall(dataDir, safety) : null),
  });
  return { safetyBackup: out.safetyBackup, created: out.manifest.created, version: out.manifest.spoolVersion };
}

/** The install's LMDB folder (metadata.root_path), config file and patch folder; the config is never written. */
async function locate(dataDir: string) {
  const configPath = process.env.SPOOL_CONFIG ? resolve(process.env.SPOOL_CONFIG) : join(dataDir, 'config.yaml');
  const rootSetting = existsSync(configPath)
    ? (await ConfigService.open({ dataDir, configPath, env: {}, logger: createLogger('spool') })).get().metadata
        .root_path
    : defaultsFor(dataDir).metadata.root_path;
  const dbDir = join(resolve(dataDir, rootSetting), 'db');
  return { dbDir, rootSetting, configPath, patchDir: join(dataDir, 'patches') };
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
