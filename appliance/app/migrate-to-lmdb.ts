import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigService } from '../config/index.js';
import { createLogger, type Logger } from '../logging/logger.js';
import { openStore, type StorageDomain } from '../store/index.js';
import { maskUrl, openPgDb, type PgDb, type PgMigration } from '../store/pg/index.js';
import { copyEachDomain, MigrateRefused, type MigrateOutcome } from './migrate-to-pg.js';

/** One domain moved into LMDB (a storage module, `<domain>/<name>.storage.ts`): its schema and its copy back. */
export type LmdbDomain = Pick<StorageDomain<object, never>, 'scope' | 'copyToLmdb'> & {
  pg: { migrations: readonly PgMigration[] };
};

export interface CopyIntoLmdbOptions {
  /** The PostgreSQL database read (a pool, or one consistent snapshot: store/pg/pg-snapshot.ts); only read. */
  db: PgDb;
  /** The LMDB install's data dir: the patch blobs and sidecars go in `<it>/patches` and `<it>/sidecars`. */
  dataDir: string;
  /** `metadata.root_path`: the LMDB files go in `<it>/db`, which must hold no store yet. */
  rootPath: string;
  /** Every domain that keeps something (STORAGE_DOMAINS, app/storage-domains.ts), in order. */
  domains: readonly LmdbDomain[];
  print: (line: string) => void;
  logger?: Logger;
}

/**
 * Copies every domain of a PostgreSQL database into a new LMDB environment and the data dir's files (the same
 * per-domain copy, the other way, as `spool migrate` into PostgreSQL: app/migrate-to-pg.ts): checks the database's
 * schema is this Spool's and the target holds no store, then runs each domain's `copyToLmdb`, which reads its
 * records back through the LMDB store and compares. Every domain runs even after one failed, so one run names every
 * difference. The database is only read.
 */
export async function copyPgIntoLmdb(opts: CopyIntoLmdbOptions): Promise<MigrateOutcome> {
  await refuseOtherSchema(opts.db, opts.domains);
  refuseNonEmptyTarget(opts.dataDir, opts.rootPath);
  const store = openStore({ rootPath: opts.rootPath, ...(opts.logger ? { logger: opts.logger } : {}) });
  try {
    const base = { store, db: opts.db, dataDir: opts.dataDir };
    return await copyEachDomain(opts.domains, (d) => d.copyToLmdb, base, opts.print);
  } finally {
    await store.close();
  }
}

/** `spool migrate --from <postgres url> --to <data dir>` (docs/deployment.md "Moving from PostgreSQL to LMDB"). */
export async function migrateToLmdb(opts: {
  from: string;
  to: string;
  domains: readonly LmdbDomain[];
  print: (line: string) => void;
}): Promise<MigrateOutcome> {
  const logger = createLogger('spool', 'warn');
  const { dataDir, rootPath } = await locateTarget(opts.to, logger, opts.print);
  const db = await openPgDb(opts.from, { logger, applicationName: 'spool migrate', max: 4 }).catch((err: unknown) => {
    throw new MigrateRefused(err instanceof Error ? err.message : String(err));
  });
  try {
    opts.print(`copying ${maskUrl(opts.from)} into ${join(rootPath, 'db')}`);
    return await copyPgIntoLmdb({ db, dataDir, rootPath, domains: opts.domains, print: opts.print, logger });
  } finally {
    await db.close();
  }
}

/** The database must be at this Spool's schema for every domain: an older one is started once first, a newer refused. */
async function refuseOtherSchema(db: PgDb, domains: readonly LmdbDomain[]): Promise<void> {
  const rows = await db
    .query<{ scope: string; version: number }>('SELECT scope, version FROM spool_schema')
    .catch((err: Error) => {
      throw new MigrateRefused(`${db.label} holds no Spool store (${err.message})`);
    });
  const versions = new Map(rows.rows.map((r) => [r.scope, r.version]));
  for (const d of domains) {
    const [have, want] = [versions.get(d.scope) ?? 0, d.pg.migrations.length];
    if (have < want)
      throw new MigrateRefused(
        `the database's '${d.scope}' schema is version ${have}, this Spool's is ${want}: start a node of this Spool ` +
          'on it once (it brings the schema up to date), then copy it',
      );
    if (have > want)
      throw new MigrateRefused(
        `the database's '${d.scope}' schema is version ${have}, newer than this Spool's (${want})`,
      );
  }
}

/** The copy goes into a new store only: no LMDB environment, no patch blobs or sidecars there yet. */
function refuseNonEmptyTarget(dataDir: string, rootPath: string): void {
  const taken = [join(rootPath, 'db', 'data.mdb'), join(dataDir, 'patches'), join(dataDir, 'sidecars')].find(
    (p) => existsSync(p) && (p.endsWith('.mdb') || readdirSync(p).length > 0),
  );
  if (taken)
    throw new MigrateRefused(`${taken} already exists: the copy into LMDB goes into a new data dir (or an empty one)`);
}

/** The data dir to copy into: its config's metadata.root_path, or the data dir's default (`<it>/metadata`). */
async function locateTarget(
  to: string,
  logger: Logger,
  print: (line: string) => void,
): Promise<{ dataDir: string; rootPath: string }> {
  const dataDir = resolve(to);
  const configPath = join(dataDir, 'config.yaml');
  if (!existsSync(configPath)) {
    print(`${dataDir} has no config.yaml: the store goes in ${join(dataDir, 'metadata', 'db')} (the default)`);
    return { dataDir, rootPath: join(dataDir, 'metadata') };
  }
  const config = await ConfigService.open({ dataDir, configPath, env: {}, logger }).catch((err: unknown) => {
    throw new MigrateRefused(err instanceof Error ? err.message : String(err));
  });
  return { dataDir, rootPath: resolve(dataDir, config.get().metadata.root_path) };
}
