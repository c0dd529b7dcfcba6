import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigService } from '../config/index.js';
import { createLogger, type Logger } from '../logging/logger.js';
import { openStore, pgSchemasOf, type CopyOpening, type StorageDomain } from '../store/index.js';
import {
  firstTableWithRows,
  maskUrl,
  migratePg,
  openPgDb,
  type CopyReport,
  type PgDb,
  type PgMigration,
} from '../store/pg/index.js';

/** One domain moved by `spool migrate` (a storage module, `<domain>/<name>.storage.ts`): its schema and its copy. */
export type PgDomain = Pick<StorageDomain<object, never>, 'scope' | 'copy'> & {
  pg: { migrations: readonly PgMigration[] };
};

export interface MigrateToPgOptions {
  /** The LMDB install's data dir (holds config.yaml; its metadata.root_path names the LMDB files). */
  from: string;
  /** The LMDB files' folder (`<it>/db`) when not the config's `metadata.root_path` (a restore's staged copy). */
  rootPath?: string;
  /** The empty PostgreSQL database's URL. */
  to: string;
  /** Every domain that keeps something (STORAGE_DOMAINS, app/storage-domains.ts), in order. */
  domains: readonly PgDomain[];
  /** One line of the command's output. */
  print: (line: string) => void;
  logger?: Logger;
}

export interface MigrateOutcome {
  reports: CopyReport[];
  /** The domains whose copy failed or found a difference, each with why; empty = the copy is whole and checked. */
  failures: { scope: string; error: string }[];
}

/** The command cannot start: a wrong directory, an unreachable or non-empty database. Nothing was written. */
export class MigrateRefused extends Error {
  override name = 'MigrateRefused';
}

/**
 * `spool migrate` (docs/deployment.md, "Moving from LMDB"): checks the data dir holds an LMDB install and the
 * database is empty, creates every domain's schema, then runs each domain's copy, which reads its records back
 * through the PostgreSQL store and compares. Every domain runs even after one failed, so one run names every
 * difference. Nothing is removed from the LMDB install: going back is starting it again.
 */
export async function migrateToPg(opts: MigrateToPgOptions): Promise<MigrateOutcome> {
  const logger = opts.logger ?? createLogger('spool', 'warn');
  const { dataDir, rootPath } = opts.rootPath
    ? { dataDir: resolve(opts.from), rootPath: opts.rootPath }
    : await locateInstall(opts.from, logger);
  const db = await openPgDb(opts.to, { logger, applicationName: 'spool migrate', max: 4 }).catch((err: unknown) => {
    throw new MigrateRefused(err instanceof Error ? err.message : String(err));
  });
  try {
    await refuseNonEmpty(db, opts.to);
    opts.print(`schema: creating the tables in ${maskUrl(opts.to)}`);
    await migratePg(db, pgSchemasOf(opts.domains));
    const store = openStore({ rootPath, logger });
    try {
      return await copyEachDomain(opts.domains, (d) => d.copy, { store, db, dataDir }, opts.print);
    } finally {
      await store.close();
    }
  } finally {
    await db.close();
  }
}

/** A domain's copy one way or the other (StorageDomain `copy` or `copyToLmdb`). */
export type DomainCopy = (at: CopyOpening) => Promise<CopyReport[]>;

/**
 * Runs each domain's copy (`copyOf` picks which way; a domain without one is skipped: its storage module says why),
 * printing what each copied and checked. Every domain runs even after one failed, so one run names every difference.
 */
export async function copyEachDomain<D extends { scope: string }>(
  domains: readonly D[],
  copyOf: (domain: D) => DomainCopy | null,
  base: Omit<CopyOpening, 'progress'>,
  print: (line: string) => void,
): Promise<MigrateOutcome> {
  const out: MigrateOutcome = { reports: [], failures: [] };
  for (const domain of domains) {
    const copy = copyOf(domain);
    if (!copy) continue;
    // a domain's messages may name it already ('tree: 5 nodes copied')
    const progress = (m: string) => print(m.startsWith(domain.scope) ? m : `${domain.scope}: ${m}`);
    try {
      for (const report of await copy({ ...base, progress })) {
        out.reports.push(report);
        print(`${report.scope}: ${describeCopy(report)}, checked`);
      }
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      out.failures.push({ scope: domain.scope, error });
      print(`${domain.scope}: FAILED: ${error}`);
    }
  }
  return out;
}

/** `5 records, 1200 bytes`: one domain's copy, as `spool migrate` prints it (either way). */
export function describeCopy(r: CopyReport): string {
  const records = `${r.records} record${r.records === 1 ? '' : 's'}`;
  return r.bytes === undefined ? records : `${records}, ${r.bytes} bytes`;
}

/** The data dir's config (never written: a missing file is a wrong directory) and its LMDB files. */
async function locateInstall(from: string, logger: Logger): Promise<{ dataDir: string; rootPath: string }> {
  const dataDir = resolve(from);
  const configPath = join(dataDir, 'config.yaml');
  if (!existsSync(configPath))
    throw new MigrateRefused(`${dataDir} is not a Spool data directory: it has no config.yaml`);
  const config = await ConfigService.open({ dataDir, configPath, env: {}, logger }).catch((err: unknown) => {
    throw new MigrateRefused(err instanceof Error ? err.message : String(err));
  });
  const rootPath = resolve(dataDir, config.get().metadata.root_path);
  if (!existsSync(join(rootPath, 'db', 'data.mdb')))
    throw new MigrateRefused(`${dataDir} has no LMDB store at ${join(rootPath, 'db')} (metadata.root_path)`);
  return { dataDir, rootPath };
}

/** Refuses a database in which any table but the schema versions holds a row: the copy never merges libraries. */
async function refuseNonEmpty(db: PgDb, url: string): Promise<void> {
  const name = await firstTableWithRows(db);
  if (name)
    throw new MigrateRefused(
      `The database ${maskUrl(url)} is not empty (table ${name} has rows). spool migrate copies into an empty ` +
        'database only: create a new one (CREATE DATABASE) or drop this one, then run it again.',
    );
}
