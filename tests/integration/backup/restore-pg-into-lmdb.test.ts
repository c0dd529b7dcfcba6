/**
 * "And back" (docs/backups.md "Which copy"): a backup of a PostgreSQL install carries, beside its pg_dump, the
 * backend-neutral copy (every domain copied into an LMDB environment, as `spool migrate` copies into LMDB), so an LMDB
 * install restores it with no PostgreSQL server at hand: uploaded to an LMDB install and restored there, every file
 * is back and sampled files serve byte for byte through /webdav. Real PostgreSQL, real LMDB, real NNTP reads.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../../support/server.js';
import { allFiles, apiCall, assertSampledFilesServe, restarted } from '../../support/backup/library.js';
import { usePgRestoreFixture } from '../../support/backup/pg-restore-fixture.js';

const fx = usePgRestoreFixture();
const FILES = 300;

/** The names of a tar's entries, read from its headers (POSIX ustar: name at 0, size in octal at 124). */
function tarNames(tar: Buffer): string[] {
  const names: string[] = [];
  for (let at = 0; at + 512 <= tar.length && tar[at] !== 0;) {
    names.push(tar.toString('utf8', at, at + 100).replace(/\0.*$/s, ''));
    const size = parseInt(
      tar
        .toString('utf8', at + 124, at + 136)
        .replace(/\0.*$/s, '')
        .trim(),
      8,
    );
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return names;
}

test('a PostgreSQL backup restores into an LMDB install from its neutral copy and serves byte for byte', async () => {
  const onPg = fx.onPostgres(await fx.pg().createDatabase());
  const { archive, files, store } = await fx.backup(onPg, { files: FILES, seed: 23 });
  assert.equal(store, 'postgres');
  const names = tarNames(archive);
  assert.ok(names.includes('db/data.mdb'), `the neutral copy is in the archive: ${names.join(', ')}`);
  assert.ok(names.includes('db/postgres.dump'), 'and the dump (pg_dump is installed here)');
  await fx.pg().stop(); // no PostgreSQL server from here on

  const lmdb = await startServer({ config: fx.config() });
  try {
    assert.equal(allFiles(lmdb.app().streaming.vfs).length, 0, 'a new, empty LMDB library');
    const up = await apiCall<{ name: string; store: string }>(lmdb, 'POST', '/api/system/backups/upload', archive);
    assert.equal(up.store, 'postgres');
    await apiCall(lmdb, 'POST', `/api/system/backups/${up.name}/restore`);
    await restarted(lmdb, 1);
    assert.equal(lmdb.app().stores.pg, undefined, 'still on LMDB after the restore');
    assert.equal(allFiles(lmdb.app().streaming.vfs).length, files, 'every file of the PostgreSQL library is back');
    await assertSampledFilesServe(lmdb, 15);
  } finally {
    await lmdb.stop();
  }
});
