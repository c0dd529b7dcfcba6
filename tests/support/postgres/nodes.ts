/**
 * Places for a domain's PostgreSQL tests: a database with the domain's schema, two nodes on one database (each
 * its own pool, as two Spool processes hold them), and an LMDB store beside a migrated database for `spool
 * migrate`'s copy. Each closes what it opened, whatever the test did.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../../appliance/store/index.js';
import { migratePg, openPgDb, type PgDb, type PgMigration } from '../../../appliance/store/pg/index.js';
import type { PostgresServer } from './server.js';

export type Schemas = Record<string, readonly PgMigration[]>;

/** The database at `url`, its `schemas` brought up to date. */
export async function migratedDb(url: string, schemas: Schemas): Promise<PgDb> {
  const db = await openPgDb(url);
  await migratePg(db, schemas);
  return db;
}

/** Runs `run` with two nodes' connections to one new database; both are closed afterwards. */
export async function withTwoNodes(
  server: PostgresServer,
  schemas: Schemas,
  run: (a: PgDb, b: PgDb) => Promise<void>,
): Promise<void> {
  const url = await server.createDatabase();
  const a = await migratedDb(url, schemas);
  try {
    const b = await migratedDb(url, schemas);
    try {
      await run(a, b);
    } finally {
      await b.close();
    }
  } finally {
    await a.close();
  }
}

/** Runs `run` with a new LMDB store and a new migrated database (a copy's two sides); both go afterwards. */
export async function withLmdbAndPg(
  server: PostgresServer,
  schemas: Schemas,
  run: (store: Store, db: PgDb) => Promise<void>,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'spool-copy-'));
  const store = openStore({ rootPath: dir });
  try {
    const db = await migratedDb(await server.createDatabase(), schemas);
    try {
      await run(store, db);
    } finally {
      await db.close();
    }
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
