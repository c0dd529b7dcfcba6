/**
 * Issue 33 item 2 (docs/nntp.md "Quotas and expiry"), against two real INN servers: provider "a" (the shared INN)
 * has a daily quota, "b" (an INN of this file's own) none. A film posted to both is streamed through WebDAV and "a"'s
 * quota runs out in the middle of the stream: "a" is paused with a `provider_quota` notice and no verdict, and the
 * stream goes on from "b", byte-exact. A file only "a" has then fails cleanly (no 430 verdict, no zero-filled
 * byte, no repair) until the quota is raised, when it reads whole.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { ArticleFailedEvent, ProviderQuotaEvent } from '../../../appliance/events/index.js';
import type { ProviderStateEvent } from '../../../appliance/events/live.wire.js';
import type { PoolMetrics } from '../../../appliance/nntp/index.js';
import type { NoticeJson } from '../../../appliance/notify/notify.wire.js';
import type { ProviderQuotasResponse } from '../../../appliance/providers/quota.wire.js';
import { innProvider } from '../../support/inn/provider.js';
import { film as signedFilm } from '../../support/media/film.js';
import { ensureInn, stopInn, type InnServer } from '../../support/inn/server.js';
import { startReceiver } from '../../support/notify-receiver.js';
import { api, startServer, type TestServer } from '../../support/server.js';
import { davGet, sha256, upload, waitForItem } from '../import/support.js';

const rootB = `/var/tmp/spool-inn-quota-${process.pid}`;
let innA: InnServer;
let innB: InnServer;
let srv: TestServer;
let hook: Awaited<ReturnType<typeof startReceiver>>;
const ARTICLE = 256_000;

before(async () => {
  innA = await ensureInn();
  innB = await ensureInn(rootB);
  hook = await startReceiver([200]);
  srv = await startServer({
    config: {
      auth: { login_required: false },
      providers: [
        innProvider(innA, { id: 'a', max_connections: 4 }),
        innProvider(innB, { id: 'b', max_connections: 4 }),
      ],
      import: { queue_processing_interval_seconds: 1, segment_sample_percentage: 100 },
      notifications: {
        enabled: true,
        min_interval_seconds: 0,
        targets: [{ name: 'hook', type: 'webhook', url: hook.url('/hook'), events: ['provider_quota'] }],
      },
    },
  });
});
after(async () => {
  await srv?.stop();
  await hook?.close();
  await stopInn(rootB);
  rmSync(rootB, { recursive: true, force: true });
});

/** Posts `data` to A (and to B under the same message ids when `alsoB`), imports it; its path in the library. */
async function imported(name: string, data: Buffer, alsoB: boolean): Promise<string> {
  const posted = await innA.postFile(name, data, { articleSize: ARTICLE });
  if (alsoB) await innB.postFile(name, data, { articleSize: ARTICLE, messageIds: posted.messageIds });
  const up = await upload(srv.baseUrl, name.replace(/\.mkv$/, '.nzb'), posted.nzbXml, { category: 'movies' });
  assert.equal(up.status, 200, JSON.stringify(up.body));
  const item = await waitForItem(srv.baseUrl, up.body.data!.id);
  assert.equal(item.status, 'completed', item.error_message ?? '');
  return `${item.target_path}/${name}`;
}

const quotaOf = async (id: string) =>
  (await api<ProviderQuotasResponse>(srv.baseUrl, '/api/providers/quotas')).body.data!.providers.find(
    (q) => q.id === id,
  )!;

/** Waits until the webhook holds a notice matching `ok`. */
async function notice(ok: (n: NoticeJson) => boolean): Promise<NoticeJson> {
  for (;;) {
    const found = hook.got.map((r) => JSON.parse(r.body) as NoticeJson).find(ok);
    if (found) return found;
    await hook.waitFor(hook.got.length + 1);
  }
}

test('a quota spent mid-stream pauses the provider with a notice and no verdict; the stream goes on from the other', async () => {
  const film = signedFilm(32 * ARTICLE + 1234, 'Quota.Film.2024.mkv');
  const only = signedFilm(4 * ARTICLE, 'Quota.Only.On.A.2024.mkv');
  const filmPath = await imported('Quota.Film.2024.mkv', film, true);
  const onlyPath = await imported('Quota.Only.On.A.2024.mkv', only, false);

  const events = srv.app().events;
  const states: ProviderStateEvent[] = [];
  const quota: ProviderQuotaEvent[] = [];
  const failed: ArticleFailedEvent[] = [];
  const repairs: string[] = [];
  const stops = [
    events.on('repair.requested', (e) => repairs.push(e.path)),
    events.on('provider.state.changed', (e) => e.id === 'a' && states.push(e)),
    events.on('provider.quota.changed', (e) => quota.push(e)),
    events.on('read.article.failed', (e) => failed.push(e)),
  ];
  try {
    // What "a" read today for the imports, plus about a third of the film: spent in the middle of its stream.
    const before = await quotaOf('a');
    assert.equal(before.quota_bytes, null);
    const used = before.used_bytes;
    const put = await api(srv.baseUrl, '/api/providers/a', {
      method: 'PUT',
      json: { quota_period: 'daily', quota_bytes: used + Math.round(film.length / 3) },
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal((await quotaOf('a')).paused, false);

    const whole = await davGet(srv.baseUrl, filmPath);
    assert.equal(whole.status, 200);
    assert.equal(sha256(whole.body), sha256(film), 'the stream went on from "b", byte-exact');

    const spent = await notice((n) => n.details.threshold === 100);
    assert.equal(spent.event, 'provider_quota');
    assert.equal(spent.details.provider, 'a');
    assert.match(spent.title, /Provider quota spent: a/);
    const paused = states.find((e) => e.state === 'paused');
    assert.ok(paused, `never announced paused: ${JSON.stringify(states)}`);
    assert.deepEqual([paused.change, paused.health, paused.reason], ['quota_spent', 'blocked', 'quota_spent']);
    const told = quota.map((e) => e.threshold);
    assert.ok(told.includes(100), JSON.stringify(told));
    assert.equal(new Set(told).size, told.length, `each threshold told once: ${JSON.stringify(told)}`);
    const view = await quotaOf('a');
    assert.equal(view.paused, true);
    assert.ok(view.used_bytes >= view.quota_bytes!, JSON.stringify(view));
    const metrics = await api<PoolMetrics>(srv.baseUrl, '/api/system/pool/metrics');
    const a = metrics.body.data!.providers.find((p) => p.id === 'a')!;
    const b = metrics.body.data!.providers.find((p) => p.id === 'b')!;
    assert.deepEqual([a.state, a.health, a.reason], ['paused', 'blocked', 'quota_spent']);
    assert.ok(b.bytes_downloaded > 0, '"b" served the rest of the film');
    const scrape = await (await fetch(`${srv.baseUrl}/metrics`)).text();
    assert.match(scrape, /spool_provider_quota_paused\{provider="a"\} 1/);
    assert.match(scrape, /spool_provider_health\{provider="a",health="blocked",reason="quota_spent"\} 1/);

    // Only "a" has this one, and "a" is paused: the read fails cleanly, "b"'s 430 is no verdict.
    const refused = await davGet(srv.baseUrl, onlyPath).catch(() => ({ status: 0, body: Buffer.alloc(0) }));
    assert.ok(!(refused.status === 200 && refused.body.equals(only)), 'served from a paused provider');
    assert.ok(!refused.body.includes(Buffer.alloc(ARTICLE)), 'no zero-filled article');
    assert.deepEqual(failed, [], 'no article called missing or damaged while "a" is paused');

    // The quota raised: "a" serves again, told once, and the file reads whole.
    const raised = await api(srv.baseUrl, '/api/providers/a', {
      method: 'PUT',
      json: { quota_bytes: used + 10 * film.length },
    });
    assert.equal(raised.status, 200);
    await notice((n) => n.details.provider === 'a' && n.details.threshold === null);
    const back = await davGet(srv.baseUrl, onlyPath);
    assert.equal(back.status, 200);
    assert.equal(sha256(back.body), sha256(only));
    assert.deepEqual(failed, []);
    assert.deepEqual(repairs, [], 'no repair asked for');
  } finally {
    for (const stop of stops) stop();
  }
});
