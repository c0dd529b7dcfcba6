/**
 * `spool migrate` (appliance/app/migrate-to-pg.ts, appliance/migrate-command.ts) against a real PostgreSQL and real
 * LMDB files: what it refuses before writing anything, and that every domain runs and reports even when one fails.
 * The copy of every real domain, read back through a node, is proven in cluster-migrate.test.ts.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { migrateToLmdb } from '../../../appliance/app/migrate-to-lmdb.js';
import { migrateToPg, MigrateRefused, type PgDomain } from '../../../appliance/app/migrate-to-pg.js';
import { ConfigService } from '../../../appliance/config/index.js';
import { createLogger } from '../../../appliance/logging/logger.js';
import { openStore } from '../../../appliance/store/index.js';
import { migratePg, openPgDb } from '../../../appliance/store/pg/index.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';

const ROOT = resolve(import.meta.dirname, '../../..');
let server: PostgresServer;
const dirs: string[] = [];
before(async () => (server = await startPostgres()));
after(async () => {
  await server?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** An LMDB install: config.yaml and a store holding `names` in a database 'demo'. */
async function lmdbInstall(names: string[]): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'spool-migrate-'));
  dirs.push(dataDir);
  const config = await ConfigService.open({ dataDir, env: {}, logger: createLogger('test', 'error') });
  const store = openStore({ rootPath: resolve(dataDir, config.get().metadata.root_path) });
  const demo = store.openDb<string, string>('demo');
  for (const n of names) await demo.put(n, n.toUpperCase());
  await store.close();
  return dataDir;
}

const demo: PgDomain = {
  scope: 'demo',
  pg: {
    migrations: [
      {
        version: 1,
        description: 'names',
        up: async (tx) => void (await tx.query('CREATE TABLE demo (k text, v text)')),
      },
    ],
  },
  copy: async ({ store, db, progress }) => {
    let n = 0;
    for (const { key, value } of store.openDb<string, string>('demo').getRange()) {
      await db.query('INSERT INTO demo VALUES ($1, $2)', [key, value]);
      n++;
    }
    progress(`${n} names`);
    return [{ scope: 'demo', records: n, bytes: n * 2 }];
  },
};

test('copies every domain, prints each, and a failing domain fails the run but not the others', async () => {
  const from = await lmdbInstall(['a', 'b', 'c']);
  const to = await server.createDatabase();
  const lines: string[] = [];
  const broken: PgDomain = {
    scope: 'broken',
    pg: { migrations: [] },
    copy: () => Promise.reject(new Error('record 7 differs')),
  };
  const out = await migrateToPg({
    from,
    to,
    domains: [broken, { scope: 'nothing', pg: { migrations: [] }, copy: null }, demo],
    print: (l) => lines.push(l),
  });
  assert.deepEqual(out.reports, [{ scope: 'demo', records: 3, bytes: 6 }]);
  assert.deepEqual(
    out.failures.map((f) => f.scope),
    ['broken'],
  );
  assert.ok(lines.includes('demo: 3 records, 6 bytes, checked'), lines.join('\n'));
  assert.ok(lines.includes('broken: FAILED: record 7 differs'), lines.join('\n'));
  const db = await openPgDb(to);
  try {
    const rows = (await db.query<{ k: string; v: string }>('SELECT k, v FROM demo ORDER BY k')).rows;
    assert.deepEqual(rows, [
      { k: 'a', v: 'A' },
      { k: 'b', v: 'B' },
      { k: 'c', v: 'C' },
    ]);
  } finally {
    await db.close();
  }
});

test('a database with rows in any table is refused before anything is written', async () => {
  const from = await lmdbInstall(['a']);
  const to = await server.createDatabase();
  const db = await openPgDb(to);
  try {
    await db.query('CREATE TABLE spool_users (id text)');
    await db.query(`INSERT INTO spool_users VALUES ('someone')`);
    await assert.rejects(
      migrateToPg({ from, to, domains: [demo], print: () => undefined }),
      (err: Error) => err instanceof MigrateRefused && /not empty \(table spool_users has rows\)/.test(err.message),
    );
    const tables = await db.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`);
    assert.deepEqual(
      tables.rows.map((r) => r.tablename),
      ['spool_users'],
      'no schema created, nothing copied',
    );
  } finally {
    await db.close();
  }
});

test('a directory that is no Spool install is refused, and nothing is written into it', async () => {
  const empty = mkdtempSync(join(tmpdir(), 'spool-migrate-empty-'));
  dirs.push(empty);
  const to = await server.createDatabase();
  await assert.rejects(
    migrateToPg({ from: empty, to, domains: [demo], print: () => undefined }),
    /is not a Spool data directory: it has no config.yaml/,
  );
  const noStore = await lmdbInstall([]);
  rmSync(join(noStore, 'metadata'), { recursive: true, force: true });
  await assert.rejects(
    migrateToPg({ from: noStore, to, domains: [demo], print: () => undefined }),
    /has no LMDB store at/,
  );
});

test('the command line: wrong arguments exit 2 with the usage, a refusal exits 1 with its reason', () => {
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'appliance/main.ts', 'migrate', ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
  const missing = cli('--from', '/nowhere');
  assert.equal(missing.status, 2, missing.stderr);
  assert.match(missing.stderr, /both --from and --to are required\nusage: spool migrate --from/);
  const badUrl = cli('--from', '/nowhere', '--to', 'mysql://x');
  assert.equal(badUrl.status, 2);
  assert.match(badUrl.stderr, /one of --from and --to must be a postgres:\/\/ or postgresql:\/\/ URL/);
  const refused = cli('--from', '/nowhere', '--to', server.urlOf('postgres'));
  assert.equal(refused.status, 1, refused.stderr);
  assert.match(refused.stderr, /^spool migrate: \/nowhere is not a Spool data directory: it has no config.yaml\n$/);
  const noSpool = cli('--from', server.urlOf('postgres'), '--to', mkdtempSync(join(tmpdir(), 'spool-migrate-back-')));
  assert.equal(noSpool.status, 1, noSpool.stderr);
  assert.match(noSpool.stderr, /^spool migrate: postgres:\/\/spool:\*\*\*@.* holds no Spool store/);
});

test('the copy into LMDB goes into a new store only: a data dir with one is refused and left as it was', async () => {
  const taken = await lmdbInstall(['a']);
  const url = await server.createDatabase();
  const db = await openPgDb(url);
  await migratePg(db, {}).finally(() => db.close()); // the schema table alone: an empty Spool store
  const before = readFileSync(join(taken, 'metadata', 'db', 'data.mdb'));
  await assert.rejects(
    migrateToLmdb({ from: url, to: taken, domains: [], print: () => undefined }),
    (err: Error) =>
      err instanceof MigrateRefused && /data\.mdb already exists: the copy into LMDB goes into a new/.test(err.message),
  );
  assert.ok(readFileSync(join(taken, 'metadata', 'db', 'data.mdb')).equals(before));
});
