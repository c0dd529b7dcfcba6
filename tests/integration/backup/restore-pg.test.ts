/**
 * Restores onto PostgreSQL (docs/backups.md "Restores that cannot make things worse"): an LMDB install's backup,
 * uploaded to a PostgreSQL install and restored there (the same per-domain copy as `spool migrate`), serves every
 * sampled file byte for byte; then a backup of the PostgreSQL install (pg_dump) restored over a changed library
 * brings it back. Real PostgreSQL (tests/support/postgres), real LMDB, reads from a real NNTP server.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../../support/server.js';
import { allFiles, apiCall, assertSampledFilesServe, restarted } from '../../support/backup/library.js';
import { usePgRestoreFixture } from '../../support/backup/pg-restore-fixture.js';

const fx = usePgRestoreFixture();
const FILES = 600;

test('an LMDB backup restored into PostgreSQL, then a pg_dump backup restored over a change, serve byte for byte', async () => {
  const { archive, files } = await fx.backup(fx.config(), { files: FILES, seed: 11 });
  const srv = await startServer({ config: fx.onPostgres(await fx.pg().createDatabase()) });
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
