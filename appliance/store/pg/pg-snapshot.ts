import pg from 'pg';
import { LeaderFence } from './leader-fence.js';
import { maskUrl, type PgDb } from './pg-db.js';

/**
 * The database as one consistent, read-only picture: one connection in a `REPEATABLE READ READ ONLY` transaction
 * (one snapshot for every statement), shaped as a PgDb so every domain's copy into LMDB reads through it as it reads
 * a live database. What a PostgreSQL backup's neutral copy reads (docs/backups.md): the domains are copied from the
 * same instant, and a statement that writes fails (the copy only reads). `tx` runs its work on the same connection
 * and snapshot; nothing is notified or listened to (a copy keeps no state in memory past its run). `close` ends it.
 */
export async function openPgSnapshot(url: string): Promise<PgDb> {
  const client = new pg.Client({ connectionString: url, application_name: 'spool backup' });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  } catch (err) {
    await client.end().catch(() => undefined);
    throw err;
  }
  let closed: Promise<void> | null = null;
  return {
    label: maskUrl(url),
    fence: new LeaderFence(),
    query: (text, params) => client.query(text, params),
    tx: (work) => work(client),
    notify: () => Promise.resolve(), // a store closing announces nothing it wrote: it wrote nothing
    listen: () => () => undefined,
    listening: () => Promise.resolve(true),
    connect: () => Promise.reject(new Error('a snapshot of the database has one connection')),
    close() {
      closed ??= client
        .query('ROLLBACK')
        .catch(() => undefined)
        .then(() => client.end());
      return closed;
    },
  };
}
