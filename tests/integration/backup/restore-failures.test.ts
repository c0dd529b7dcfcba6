/**
 * Restores that fail cannot make things worse (docs/backups.md "When a restore fails"): a restore whose new app
 * fails to start after the swap (an archive whose store a newer Spool wrote: its schema is refused at open, after the
 * checks and the safety backup passed), and a restore killed with SIGKILL in the middle of its swap, both leave the
 * previous library serving untouched (every file, sampled files byte for byte through /webdav) with the safety
 * backup listed. Real LMDB, the real supervisor, reads from a real NNTP server.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildLibrary } from '../../../bench/lib/scale-library.js';
import { startPatternServer, type PatternServer } from '../../../bench/lib/pattern-nntp.js';
import { startServer, type TestServer } from '../../support/server.js';
import { allFiles, apiCall, assertSampledFilesServe, DAV, restarted } from '../../support/backup/library.js';

let nntp: PatternServer;
before(async () => (nntp = await startPatternServer()));
after(async () => await nntp?.close());

const config = () => ({
  auth: { login_required: false },
  webdav: DAV,
  providers: [{ host: nntp.host, port: nntp.port, username: 'u', password: 'p', max_connections: 4 }],
});

/** A library of `files`, a backup of it (`tamper` runs on the store just before), then a change: the library now. */
async function libraryChangedAfterBackup(
  srv: TestServer,
  tamper = () => {},
): Promise<{ archive: string; now: string[] }> {
  await buildLibrary(srv.app(), { files: 120, articleFactor: 0.0005, seed: 5 }, () => undefined);
  tamper();
  const made = await apiCall<{ name: string }>(srv, 'POST', '/api/system/backups');
  await srv.app().streaming.vfs.remove('/complete/movies');
  const now = allFiles(srv.app().streaming.vfs).sort();
  assert.ok(now.length > 0, 'a library is left after the change');
  return { archive: made.name, now };
}

async function assertPreviousLibraryServes(srv: TestServer, now: string[]): Promise<void> {
  assert.deepEqual(allFiles(srv.app().streaming.vfs).sort(), now, 'the library as it was before the restore');
  await assertSampledFilesServe(srv, 10);
  const list = await apiCall<{ items: { name: string; kind: string }[] }>(srv, 'GET', '/api/system/backups');
  assert.ok(
    list.items.some((b) => b.kind === 'pre-restore'),
    `the safety backup is listed: ${JSON.stringify(list.items)}`,
  );
  const left = readdirSync(srv.dataDir).filter((n) => n.endsWith('.replaced') || n.startsWith('.restore-staging'));
  assert.deepEqual(left, [], 'nothing of the failed restore is left in the data dir');
}

test('a restore whose new app fails after the swap puts the previous library back, serving', async () => {
  const srv = await startServer({ config: config() });
  try {
    const meta = srv.app().stores.local.meta;
    const version = meta.get('schema_version:queue');
    const { archive, now } = await libraryChangedAfterBackup(srv, () => {
      meta.putSync('schema_version:queue', 99); // the archive's store: a newer Spool's queue schema
    });
    meta.putSync('schema_version:queue', version);
    await apiCall(srv, 'POST', `/api/system/backups/${archive}/restore`);
    await restarted(srv, 1);
    assert.ok(srv.logs.some((l) => /the restored backup did not start; the previous state is back/.test(l)));
    await assertPreviousLibraryServes(srv, now);
    const list = await apiCall<{ last_restore: { check: { state: string; note: string } } }>(
      srv,
      'GET',
      '/api/system/backups',
    );
    assert.equal(list.last_restore.check.state, 'skipped');
    assert.match(
      list.last_restore.check.note,
      /^the restore failed \(.*newer than this Spool knows.*\); the previous state was kept$/,
    );
  } finally {
    await srv.stop();
  }
});

test('a restore killed with SIGKILL in the middle of its swap is undone at the next start, serving', async () => {
  const first = await startServer({ config: config(), keepDataDir: true });
  let dataDir: string;
  let archive: string;
  let now: string[];
  try {
    dataDir = first.dataDir;
    ({ archive, now } = await libraryChangedAfterBackup(first));
  } finally {
    await first.stop();
  }
  // `spool restore` in a child that kills itself once the store's folder is swapped in, before the config and files
  const command = fileURLToPath(new URL('../../../appliance/backup-command.ts', import.meta.url));
  const script = [
    `import { restoreInstall } from ${JSON.stringify(command)};`,
    `await restoreInstall(${JSON.stringify(dataDir)}, ${JSON.stringify(join(dataDir, 'backups', archive))}, {`,
    `  afterMove: (live) => { if (live.endsWith('/db')) process.kill(process.pid, 'SIGKILL'); } });`,
  ].join('\n');
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'inherit' });
  assert.equal(await new Promise((done) => child.on('exit', (_code, signal) => done(signal))), 'SIGKILL');
  assert.ok(existsSync(join(dataDir, 'metadata', 'db.replaced')), 'killed mid-swap: the previous store moved aside');
  assert.ok(existsSync(join(dataDir, '.restore-staging.swap.json')), 'and the swap journal kept');

  const next = await startServer({ dataDir }); // its config file as the kill left it: nothing rewritten first
  try {
    assert.ok(next.logs.some((l) => /a restore was cut short during its swap; the previous files are back/.test(l)));
    await assertPreviousLibraryServes(next, now);
  } finally {
    await next.stop();
  }
});
