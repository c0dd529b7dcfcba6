/**
 * "And back" (docs/backups.md "Which copy"): a backup of a PostgreSQL install carries, beside its pg_dump, the
 * backend-neutral copy (every domain copied into an LMDB environment, as `spool migrate` copies into LMDB), so an LMDB
 * install restores it with no PostgreSQL server at hand: uploaded to an LMDB install and restored there, every file
 * is back and sampled files serve byte for byte through /webdav. Real PostgreSQL, real LMDB, real NNTP reads.
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

const FILES = 300;
const config = (extra: Record<string, unknown> = {}) => ({
  auth: { login_required: false },
  webdav: DAV,
  providers: [{ host: nntp.host, port: nntp.port, username: 'u', password: 'p', max_connections: 4 }],
  ...extra,
});

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
  const url = await pg.createDatabase();
  const onPg = await startServer({ config: config({ metadata: { root_path: './metadata', database_url: url } }) });
  let archive: Buffer;
  let files: number;
  try {
    files = (await buildLibrary(onPg.app(), { files: FILES, articleFactor: 0.0005, seed: 23 }, () => undefined)).files;
    const made = await apiCall<{ name: string; store: string }>(onPg, 'POST', '/api/system/backups');
    assert.equal(made.store, 'postgres');
    archive = readFileSync(join(onPg.dataDir, 'backups', made.name));
  } finally {
    await onPg.stop();
  }
  const names = tarNames(archive);
  assert.ok(names.includes('db/data.mdb'), `the neutral copy is in the archive: ${names.join(', ')}`);
  assert.ok(names.includes('db/postgres.dump'), 'and the dump (pg_dump is installed here)');
  await pg.stop(); // no PostgreSQL server from here on

  const lmdb = await startServer({ config: config() });
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
