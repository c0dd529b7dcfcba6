/**
 * A library of 100,000 files (docs/backups.md "Tests"): built through the real app's tree writes (the scale
 * bench's library, bench/lib/scale-library.ts, with one to a few articles per file), backed up while Spool serves,
 * changed, then restored from the API. After the restart into it, every sampled file is read through /webdav from a
 * real NNTP server (the pattern server: every article a real yEnc part) and compared byte for byte, and the change
 * made after the backup is gone. SPOOL_RESTORE_FILES sets the size (default 100,000); the times are printed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildLibrary } from '../../../bench/lib/scale-library.js';
import { startPatternServer } from '../../../bench/lib/pattern-nntp.js';
import { startServer } from '../../support/server.js';
import { allFiles, apiCall, assertSampledFilesServe, DAV, restarted } from '../../support/backup/library.js';

const FILES = Number(process.env.SPOOL_RESTORE_FILES ?? 100_000);
const seconds = (from: number) => ((Date.now() - from) / 1000).toFixed(1);

test(`a ${FILES}-file library restored from its backup serves every sampled file byte for byte`, async () => {
  const nntp = await startPatternServer();
  const provider = { host: nntp.host, port: nntp.port, username: 'u', password: 'p', max_connections: 8 };
  const srv = await startServer({ config: { auth: { login_required: false }, webdav: DAV, providers: [provider] } });
  try {
    let at = Date.now();
    const facts = await buildLibrary(srv.app(), { files: FILES, articleFactor: 0.0005, seed: 35 }, () => undefined);
    console.log(`library: ${facts.files} files, ${facts.articles} articles, built in ${seconds(at)} s`);
    at = Date.now();
    const backup = await apiCall<{ name: string; size: number }>(srv, 'POST', '/api/system/backups');
    console.log(`backup: ${(backup.size / 1e6).toFixed(1)} MB in ${seconds(at)} s`);
    await srv.app().streaming.vfs.remove('/complete/movies');
    assert.equal(srv.app().streaming.vfs.stat('/complete/movies'), undefined);

    at = Date.now();
    await apiCall(srv, 'POST', `/api/system/backups/${backup.name}/restore`);
    await restarted(srv, 1);
    console.log(`restore and restart: ${seconds(at)} s`);
    assert.equal(allFiles(srv.app().streaming.vfs).length, facts.files, 'every file of the backup is back');
    await assertSampledFilesServe(srv, 25);
  } finally {
    await srv.stop();
    await nntp.close();
  }
});
