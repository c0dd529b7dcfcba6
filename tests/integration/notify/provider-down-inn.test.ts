import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { ArticleFailedEvent } from '../../../appliance/events/index.js';
import type { ProviderStateEvent } from '../../../appliance/events/live.wire.js';
import type { PoolMetrics } from '../../../appliance/nntp/index.js';
import type { NoticeJson } from '../../../appliance/notify/notify.wire.js';
import { startInnAgain, stopInnEntirely } from '../../support/inn/outage.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { startReceiver } from '../../support/notify-receiver.js';
import { api, type TestServer } from '../../support/server.js';
import { davGet, sha256, startImportServer, upload, waitForItem } from '../import/support.js';
import { film } from '../../support/media/film.js';

// Issue 30: a provider that goes away is announced. A real Spool reading from its own INN (not the shared one: this
// test stops it) with a webhook target; INN is stopped entirely (innd and its readers) while a player reads, and
// started again on the same port. provider_down must come when the breaker opens, provider_up once INN answers the
// pool's probe, each exactly once, and no article is ever called missing for it (docs/nntp.md "Provider states").
const root = `/var/tmp/spool-inn-provider-down-${process.pid}`;
let inn: InnServer;
let srv: TestServer;
let hook: Awaited<ReturnType<typeof startReceiver>>;

before(async () => {
  inn = await ensureInn(root);
  hook = await startReceiver([200]);
  srv = await startImportServer(inn, {
    notifications: {
      enabled: true,
      min_interval_seconds: 0,
      targets: [{ name: 'hook', type: 'webhook', url: hook.url('/hook'), events: ['provider_down', 'provider_up'] }],
    },
  });
});
after(async () => {
  await srv?.stop();
  await hook?.close();
  await stopInnEntirely(root);
  rmSync(root, { recursive: true, force: true });
});

/** The webhook's notices so far, by kind. */
const received = () => hook.got.map((r) => JSON.parse(r.body) as NoticeJson);

/** Waits until the webhook holds a notice of `kind`; returns it. */
async function notice(kind: string): Promise<NoticeJson> {
  for (;;) {
    const found = received().find((n) => n.event === kind);
    if (found) return found;
    await hook.waitFor(hook.got.length + 1);
  }
}

/** GET of bytes [from, from + 1 MiB) of `path`, read to its end or its cut; the status, never a throw. */
async function readRange(path: string, from: number): Promise<number> {
  const url = `${srv.baseUrl}/webdav${path.split('/').map(encodeURIComponent).join('/')}`;
  try {
    const res = await fetch(url, { headers: { range: `bytes=${from}-${from + (1 << 20) - 1}` } });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0; // cut after the first byte: what a player sees when the provider goes mid-read
  }
}

test('INN stopped during a read: provider_down once when the breaker opens, provider_up once it answers again', async () => {
  const data = film(24 * 1024 * 1024 + 12_345);
  const posted = await inn.postFile('Outage.Movie.2024.mkv', data, { articleSize: 512_000 });
  const up = await upload(srv.baseUrl, 'Outage.Movie.2024.nzb', posted.nzbXml, { category: 'movies' });
  assert.equal(up.status, 200, JSON.stringify(up.body));
  const item = await waitForItem(srv.baseUrl, up.body.data!.id);
  assert.equal(item.status, 'completed', item.error_message ?? '');
  const path = `${item.target_path}/Outage.Movie.2024.mkv`;

  const events = srv.app().events;
  const states: ProviderStateEvent[] = [];
  const failed: ArticleFailedEvent[] = [];
  const stops = [
    events.on('provider.state.changed', (e) => states.push(e)),
    events.on('read.article.failed', (e) => failed.push(e)),
  ];
  try {
    // A player reads from the start; INN goes away under it.
    const res = await fetch(`${srv.baseUrl}/webdav${path.split('/').map(encodeURIComponent).join('/')}`);
    assert.equal(res.status, 200);
    const reader = res.body!.getReader();
    assert.ok((await reader.read()).value!.byteLength > 0, 'the read has begun');
    await stopInnEntirely(root);
    const rest = (async () => {
      for (;;) if ((await reader.read()).done) return;
    })().catch(() => undefined);
    // The player seeks on (each a read of its own) until the pool sets the provider aside.
    for (let seeks = 0, at = 4; !states.some((e) => e.state === 'cooling_down'); seeks++, at = (at + 3) % 24) {
      assert.ok(seeks < 50, `provider never announced down: ${JSON.stringify(states)}`);
      assert.notEqual(await readRange(path, at << 20), 206, 'served with INN stopped');
    }
    await rest;

    const down = await notice('provider_down');
    assert.equal(down.details.provider, 'inn');
    assert.match(down.title, /Provider down: inn/);
    const put = states.filter((e) => e.state === 'cooling_down');
    assert.equal(put.length, 1, 'announced down once');
    assert.equal(put[0]!.change, 'breaker_opened');
    const metrics = await api<PoolMetrics>(srv.baseUrl, '/api/system/pool/metrics');
    assert.equal(metrics.body.data!.providers.find((p) => p.id === 'inn')!.state, 'cooling_down');

    // INN back on its port: the pool's probe at the end of the cool-down finds it; no request needed.
    await startInnAgain(root);
    const back = await notice('provider_up');
    assert.equal(back.details.provider, 'inn');
    assert.deepEqual(
      states.map((e) => [e.id, e.state, e.change]),
      [
        ['inn', 'cooling_down', 'breaker_opened'],
        ['inn', 'usable', 'answered'],
      ],
    );

    const whole = await davGet(srv.baseUrl, path);
    assert.equal(whole.status, 200);
    assert.equal(sha256(whole.body), sha256(data), 'byte-exact once INN is back');
    // An outage is never evidence: no article was called missing or damaged, the file's health untouched.
    assert.deepEqual(failed, []);
    assert.deepEqual(
      received().map((n) => n.event),
      ['provider_down', 'provider_up'],
      'exactly one of each reached the webhook',
    );
  } finally {
    for (const stop of stops) stop();
  }
});
