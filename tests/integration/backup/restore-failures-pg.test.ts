/**
 * A failed restore on PostgreSQL cannot make things worse either (docs/backups.md "When a restore fails"): the
 * database takes the store before the config is swapped, so a restore that fails there (an LMDB archive whose
 * health schema is not this Spool's: the copy into the emptied database refuses it, after the checks and the safety
 * backup passed) has the safety backup loaded back in; the previous library serves (every file, sampled files byte
 * for byte through /webdav) with the safety backup listed. Real PostgreSQL, real LMDB, reads from a real NNTP server.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildLibrary } from '../../../bench/lib/scale-library.js';
import { startServer } from '../../support/server.js';
import { allFiles, apiCall, assertSampledFilesServe, restarted } from '../../support/backup/library.js';
import { usePgRestoreFixture } from '../../support/backup/pg-restore-fixture.js';

const fx = usePgRestoreFixture();

test('a restore into PostgreSQL that fails while the database takes the store puts the previous one back', async () => {
  const { archive } = await fx.backup(fx.config(), { files: 40, seed: 3 }, (lmdb) => {
    lmdb.app().stores.local.meta.putSync('schema_version:health', 1); // not this Spool's health schema
  });
  const srv = await startServer({ config: fx.onPostgres(await fx.pg().createDatabase()) });
  try {
    await buildLibrary(srv.app(), { files: 60, articleFactor: 0.0005, seed: 8 }, () => undefined);
    const now = allFiles(srv.app().streaming.vfs).sort();
    const up = await apiCall<{ name: string }>(srv, 'POST', '/api/system/backups/upload', archive);
    await apiCall(srv, 'POST', `/api/system/backups/${up.name}/restore`);
    await restarted(srv, 1);
    assert.ok(srv.logs.some((l) => /the restored backup did not start; the previous state is back/.test(l)));
    assert.ok(srv.app().stores.pg, 'still on PostgreSQL');
    assert.deepEqual(allFiles(srv.app().streaming.vfs).sort(), now, 'the library as it was before the restore');
    await assertSampledFilesServe(srv, 10);
    const list = await apiCall<{ items: { kind: string }[]; last_restore: { check: { note: string } } }>(
      srv,
      'GET',
      '/api/system/backups',
    );
    assert.ok(
      list.items.some((b) => b.kind === 'pre-restore'),
      'the safety backup is listed',
    );
    assert.match(
      list.last_restore.check.note,
      /^the restore failed \(.*health schema.*\); the previous state was kept$/,
    );
  } finally {
    await srv.stop();
  }
});
