/**
 * A failed restore on PostgreSQL cannot make things worse either (docs/backups.md "When a restore fails"): the
 * database takes the store before the config is swapped, so a restore that fails there (an LMDB archive whose
 * health schema is not this Spool's: the copy into the emptied database refuses it, after the checks and the safety
 * backup passed) has the safety backup loaded back in; the previous library serves (every file, sampled files byte
 * for byte through /webdav) with the safety backup listed. Real PostgreSQL, real LMDB, reads from a real NNTP server.
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

const config = (extra: Record<string, unknown> = {}) => ({
  auth: { login_required: false },
  webdav: DAV,
  providers: [{ host: nntp.host, port: nntp.port, username: 'u', password: 'p', max_connections: 4 }],
  ...extra,
});

test('a restore into PostgreSQL that fails while the database takes the store puts the previous one back', async () => {
  const lmdb = await startServer({ config: config() });
  let archive: Buffer;
  try {
    await buildLibrary(lmdb.app(), { files: 40, articleFactor: 0.0005, seed: 3 }, () => undefined);
    lmdb.app().stores.local.meta.putSync('schema_version:health', 1); // not this Spool's health schema
    const made = await apiCall<{ name: string }>(lmdb, 'POST', '/api/system/backups');
    archive = readFileSync(join(lmdb.dataDir, 'backups', made.name));
  } finally {
    await lmdb.stop();
  }

  const url = await pg.createDatabase();
  const srv = await startServer({ config: config({ metadata: { root_path: './metadata', database_url: url } }) });
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
