/**
 * Restores onto PostgreSQL (docs/backups.md "Restores that cannot make things worse"): an LMDB install's backup,
 * uploaded to a PostgreSQL install and restored there (the same per-domain copy as `spool migrate`), serves every
 * sampled file byte for byte; then a backup of the PostgreSQL install (pg_dump) restored over a changed library
 * brings it back. Real PostgreSQL (tests/support/postgres), real LMDB, reads from a real NNTP server.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildLibrary } from '../../../bench/lib/scale-library.js';
import { startPatternServer, type PatternServer } from '../../../bench/lib/pattern-nntp.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';
import { startServer } from '../../support/server.js';
import { allFiles, apiCall, assertSampledFilesServe, DAV, restarted } from '../../support/backup/library.js';

let pg: PostgresServer;
let nntp: PatternServer;
before(async () => {
  pg = await startPostgres();
  nntp = await startPatternServer();
});
after(async () => {
  await nntp?.close();
  await pg?.stop();
});

const FILES = 600;
const config = (extra: Record<string, unknown> = {}) => ({
  auth: { login_required: false },
  webdav: DAV,
  providers: [{ host: nntp.host, port: nntp.port, username: 'u', password: 'p', max_connections: 4 }],
  ...extra,
});

test('an LMDB backup restored into PostgreSQL, then a pg_dump backup restored over a change, serve byte for byte', async () => {
  const lmdb = await startServer({ config: config() });
  let archive: Buffer;
  let files: number;
  try {
    files = (await buildLibrary(lmdb.app(), { files: FILES, articleFactor: 0.0005, seed: 11 }, () => undefined)).files;
    const made = await apiCall<{ name: string }>(lmdb, 'POST', '/api/system/backups');
    archive = readFileSync(join(lmdb.dataDir, 'backups', made.name));
  } finally {
    await lmdb.stop();
  }

  const url = await pg.createDatabase();
  const srv = await startServer({ config: config({ metadata: { root_path: './metadata', database_url: url } }) });
  try {
    assert.equal(allFiles(srv.app().streaming.vfs).length, 0, 'a new, empty PostgreSQL library');
    const up = await apiCall<{ name: string; store: string }>(srv, 'POST', '/api/system/backups/upload', archive);
    assert.equal(up.store, 'lmdb');
    await apiCall(srv, 'POST', `/api/system/backups/${up.name}/restore`);
    await restarted(srv, 1);
    assert.ok(srv.app().stores.pg, 'still on PostgreSQL after the restore');
    assert.equal(allFiles(srv.app().streaming.vfs).length, files, 'every file of the LMDB backup is in PostgreSQL');
    await assertSampledFilesServe(srv, 15);

    const dump = await apiCall<{ name: string; store: string }>(srv, 'POST', '/api/system/backups');
    assert.equal(dump.store, 'postgres');
    await srv.app().streaming.vfs.remove('/complete/movies');
    assert.ok(allFiles(srv.app().streaming.vfs).length < files);
    await apiCall(srv, 'POST', `/api/system/backups/${dump.name}/restore`);
    await restarted(srv, 2);
    assert.equal(allFiles(srv.app().streaming.vfs).length, files, 'the pg_dump backup brought the library back');
    await assertSampledFilesServe(srv, 15);
  } finally {
    await srv.stop();
  }
});
