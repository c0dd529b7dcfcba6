import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../appliance/clock/manual-clock.js';
import type { RepairBrakeJson, RepairHistoryJson } from '../../../appliance/health/index.js';
import { fakeArrInstance } from '../../support/fake-arr/fixtures.js';
import { startFakeArr, type FakeArr } from '../../support/fake-arr/server.js';
import { cancelArticles } from '../../support/inn/cancel.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { api, innProvider, startImportServer, type TestServer } from '../import/support.js';
import { checkAndWait, importPosted, record } from './support.js';
import { film } from '../../support/media/film.js';
import { waitUntil } from '../../support/wait.js';

// The repair brake on the real server, INN and a fake Radarr: most files lose their articles on the server at once
// (a backbone losing a block); their checks engage the brake, and no arr delete happens until an admin resumes.
const ROOT = '/data/spool';
let inn: InnServer;
let radarr: FakeArr;
let srv: TestServer;
const clock = new ManualClock();
const tick = () => clock.advance(0);
let follower: NodeJS.Timeout | undefined;
let following = false;

before(async () => {
  // Time follows real time in small steps (the importer runs on this clock too), and jumps when the test says so.
  follower = setInterval(() => {
    if (following) return;
    following = true;
    void clock.advance(25).finally(() => (following = false));
  }, 25);
  inn = await ensureInn();
  radarr = await startFakeArr({ type: 'radarr' });
  srv = await startImportServer(
    inn,
    {
      providers: [innProvider(inn)],
      health: {
        enabled: true,
        auto_repair_enabled: true,
        check_interval_seconds: 86_400,
        max_retries: 1,
        max_concurrent_jobs: 4,
        repair_breaker_percent: 30,
        repair_breaker_window_minutes: 30,
        repair_delay_minutes: 30,
      },
      arrs: { enabled: true, radarr_instances: [fakeArrInstance(radarr, { root_folder: ROOT })] },
    },
    { clock },
  );
});
after(async () => {
  clearInterval(follower);
  await srv?.stop();
  await radarr?.close();
});

const brake = async () => (await api<RepairBrakeJson>(srv.baseUrl, '/api/health/repairs')).body.data!;
const history = async () =>
  (await api<RepairHistoryJson[]>(srv.baseUrl, '/api/health/repairs/history?limit=100')).body.data!;
const deletes = () => radarr.callLines().filter((l) => l.startsWith('DELETE'));

test('most files losing their articles engage the brake: no arr delete until an admin resumes, then the repairs run', async () => {
  const files: { path: string; ids: string[]; fileId: number }[] = [];
  for (let i = 0; i < 12; i++) {
    const f = await importPosted(srv.baseUrl, inn, `Wave.Film.${2000 + i}.mkv`, film(40_000), 20_000);
    const movie = radarr.addMovie({ title: `Wave Film ${i}` });
    files.push({ ...f, fileId: radarr.addMovieFile(movie.id, { path: `${ROOT}${f.path}` }).id });
  }
  const lost = files.slice(2);
  cancelArticles(
    inn,
    lost.map((f) => f.ids[0]!),
  );
  for (const f of files) await checkAndWait(srv.baseUrl, f.path, tick); // the two good ones first
  const engaged = await brake();
  assert.equal(engaged.engaged, true);
  assert.match(engaged.reason ?? '', /8 of 10 files checked in the last 30 min turned bad/);
  for (const f of lost) assert.equal((await record(srv.baseUrl, f.path)).status, 'corrupted');

  // The repair delay passes, and hours more: every repair comes due and is held; the arr is never asked to delete.
  await clock.advance(31 * 60_000);
  await waitFor(async () => (await history()).filter((h) => h.result === 'held').length === lost.length);
  for (let i = 0; i < 4; i++) await clock.advance(60 * 60_000);
  await new Promise((r) => setTimeout(r, 500));
  assert.deepEqual(deletes(), [], 'no arr delete while the brake holds');
  assert.equal((await history()).length, lost.length, 'each held file is told once');
  const worker = (await api<{ repair_paused: boolean }>(srv.baseUrl, '/api/health/worker/status')).body.data!;
  assert.equal(worker.repair_paused, true);

  // An admin resumes (login is not required here: everyone is one).
  const resumed = await api<RepairBrakeJson>(srv.baseUrl, '/api/health/repairs/resume', { method: 'POST' });
  assert.equal(resumed.status, 200, JSON.stringify(resumed.body));
  assert.equal(resumed.body.data!.engaged, false);
  await waitFor(async () => deletes().length === lost.length);
  assert.deepEqual(
    deletes().sort(),
    lost.map((f) => `DELETE moviefile/${f.fileId}`).sort(),
    'exactly the broken files, not the two good ones',
  );
  await waitFor(async () => (await history()).filter((h) => h.result === 'done').length === lost.length);
  const done = (await history()).filter((h) => h.result === 'done');
  assert.ok(done.every((h) => h.method === 'arr' && h.instance === 'radarr'));
});

async function waitFor(cond: () => Promise<boolean>): Promise<void> {
  await waitUntil('the condition', async () => (await cond()) || (await tick(), false), { everyMs: 50 });
}
