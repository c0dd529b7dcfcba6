import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { stringify } from 'yaml';
import { buildNzb, type PostedFile } from '../../support/inn/poster.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { api, davGet, davList, innProvider, sha256, upload, waitForItem, type QueueItem } from './support.js';
import { SlowRelay } from '../../support/slow-relay.js';
import { film } from '../../support/media/film.js';

// The real server as a child process, killed with SIGKILL in the middle of an import, then started again on
// the same data directory: the item must complete, once, with every file intact.
let inn: InnServer;
/** A slow provider (each chunk from INN held 40 ms), so the import takes seconds. */
let proxy: SlowRelay;
let dataDir: string;
let child: ChildProcess | undefined;

function startChild(): Promise<{ proc: ChildProcess; baseUrl: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'appliance/main.ts'], {
    cwd: join(import.meta.dirname, '..', '..', '..'),
    env: { ...process.env, SPOOL_DATA: dataDir, SPOOL_PORT: '0', SPOOL_HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not get ready:\n${out}`)), 30_000);
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /"msg":"ready","port":(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ proc, baseUrl: `http://127.0.0.1:${m[1]}` });
      }
    });
    proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    proc.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
}

function kill9(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
    proc.once('exit', () => resolve());
    proc.kill('SIGKILL');
  });
}

before(async () => {
  inn = await ensureInn();
  proxy = new SlowRelay({ host: inn.host, port: inn.port }, 40);
  await proxy.start();
  dataDir = mkdtempSync(join(tmpdir(), 'spool-crash-'));
  const provider = { ...innProvider(inn, { max_connections: 2 }), port: proxy.port };
  writeFileSync(
    join(dataDir, 'config.yaml'),
    stringify({
      auth: { login_required: false },
      providers: [provider],
      import: { queue_processing_interval_seconds: 1, segment_sample_percentage: 100, max_processor_workers: 1 },
    }),
  );
});
after(async () => {
  if (child) await kill9(child);
  await proxy?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('kill -9 while processing, restart: the item completes once, nothing lost or doubled', async () => {
  const files = Array.from({ length: 6 }, (_, i) => ({
    name: `Crash.Test.Part${i + 1}.mkv`,
    data: film(700_000 + i),
  }));
  const posted: PostedFile[] = [];
  for (const f of files) posted.push(await inn.postFile(f.name, f.data, { articleSize: 100_000 }));
  const nzb = buildNzb(posted, inn.group, 'Spool Test <poster@spool.test>');

  const first = await startChild();
  const up = await upload(first.baseUrl, 'Crash.Test.nzb', nzb, { category: 'tv' });
  assert.equal(up.status, 200);
  const id = up.body.data!.id;
  const seen = await waitForItem(first.baseUrl, id, ['processing', 'completed', 'failed']);
  assert.equal(seen.status, 'processing', 'the slow provider keeps the import running long enough to kill it');
  await kill9(first.proc);

  proxy.delayMs = 0;
  const second = await startChild();
  const done = await waitForItem(second.baseUrl, id);
  assert.equal(done.status, 'completed', done.error_message ?? '');
  assert.equal(done.target_path, '/complete/tv/Crash.Test');
  const all = (await api<QueueItem[]>(second.baseUrl, '/api/queue?limit=0')).body.data!;
  assert.deepEqual(
    all.map((i) => i.id),
    [id],
    'one queue item, not two',
  );
  assert.deepEqual(await davList(second.baseUrl, '/complete/tv'), ['Crash.Test'], 'one job directory');
  assert.deepEqual((await davList(second.baseUrl, '/complete/tv/Crash.Test')).sort(), files.map((f) => f.name).sort());
  for (const f of files) {
    const got = await davGet(second.baseUrl, `/complete/tv/Crash.Test/${f.name}`);
    assert.equal(got.status, 200, `${f.name}: ${got.body.toString().slice(0, 300)}`);
    assert.equal(sha256(got.body), sha256(f.data), f.name);
  }
  await kill9(second.proc);
});
