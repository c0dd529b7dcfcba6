import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { NoticeJson, NotifyTestResult } from '../../../appliance/notify/notify.wire.js';
import { buildNzb } from '../../support/inn/poster.js';
import { api, importServerOverInn, upload, waitForItem } from '../import/support.js';
import { startReceiver } from '../../support/notify-receiver.js';
import { film } from '../../support/media/film.js';

// A real Spool importing from the real INN, with three local targets: a webhook receiver, an ntfy-style endpoint
// that answers 500 once (the retry must bring the notice), and a receiver that never answers (it must not delay
// anything). docs/notifications.md.
const env = importServerOverInn();
let hook: Awaited<ReturnType<typeof startReceiver>>;
let ntfy: Awaited<ReturnType<typeof startReceiver>>;
let hang: Awaited<ReturnType<typeof startReceiver>>;

let configured: Promise<void> | undefined;
/** The receivers and the targets, set up once the server exists (the first test to run asks for them). */
const setup = () => (configured ??= configure());

async function configure(): Promise<void> {
  hook = await startReceiver([200]);
  ntfy = await startReceiver([500, 200]);
  hang = await startReceiver(['hang']);
  const saved = await api(env.srv.baseUrl, '/api/config/notifications', {
    method: 'PATCH',
    json: {
      config: {
        enabled: true,
        min_interval_seconds: 0,
        timeout_seconds: 60,
        targets: [
          { name: 'hang', type: 'webhook', url: hang.url('/never') },
          { name: 'hook', type: 'webhook', url: hook.url('/hook'), events: ['import_failed'] },
          { name: 'phone', type: 'ntfy', url: ntfy.url('/spool-alerts'), token: 'tk_secret' },
        ],
      },
    },
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
}
after(async () => {
  await Promise.all([hook?.close(), ntfy?.close(), hang?.close()]);
});

test('a failed import reaches the webhook and (after one retry) the ntfy endpoint; a hanging target delays nothing', async () => {
  await setup();
  const posted = await env.inn.postFile('Notify.Broken.mkv', film(60_000), { articleSize: 20_000 });
  const gone = { ...posted, segments: posted.segments.map((s) => ({ ...s, messageId: `gone-${s.messageId}` })) };
  const up = await upload(env.srv.baseUrl, 'Notify.Broken.nzb', buildNzb([gone], env.inn.group, 'p <p@t>'));
  assert.equal(up.status, 200, JSON.stringify(up.body));
  const item = await waitForItem(env.srv.baseUrl, up.body.data!.id);
  assert.equal(item.status, 'failed');
  const error = item.error_message ?? '';
  assert.ok(error.length > 0);

  const [webhook] = await hook.waitFor(1);
  assert.equal(webhook!.path, '/hook');
  assert.equal(webhook!.headers['content-type'], 'application/json');
  const json = JSON.parse(webhook!.body) as NoticeJson;
  assert.equal(json.event, 'import_failed');
  assert.equal(json.severity, 'error');
  assert.match(json.title, /Import failed: Notify\.Broken/);
  assert.equal(json.message, error);
  assert.equal(json.details.queue_item_id, item.id);
  assert.ok(!Number.isNaN(Date.parse(json.time)));

  // The ntfy endpoint refused the first POST; the retry (2 s later) carries the same notice.
  const [first, second] = await ntfy.waitFor(2);
  assert.equal(first!.answered, 500);
  assert.equal(second!.answered, 200);
  for (const r of [first!, second!]) {
    assert.equal(r.path, '/spool-alerts');
    assert.equal(r.body, error);
    assert.match(String(r.headers.title), /^Import failed: Notify\.Broken/);
    assert.equal(r.headers.priority, '5');
    assert.match(String(r.headers.tags), /import_failed/);
    assert.equal(r.headers.authorization, 'Bearer tk_secret');
  }

  // The hanging target holds its request open; meanwhile a good import runs to completion as usual.
  await hang.waitFor(1);
  assert.equal(hang.got[0]!.answered, null);
  const good = await env.inn.postFile('Notify.Good.mkv', film(40_000));
  const up2 = await upload(env.srv.baseUrl, 'Notify.Good.nzb', good.nzbXml);
  const done = await waitForItem(env.srv.baseUrl, up2.body.data!.id);
  assert.equal(done.status, 'completed', done.error_message ?? '');
  assert.equal(hang.got.length, 1, 'still the one request, unanswered');
  assert.equal(hook.got.length, 1, 'the webhook wants import_failed only');
});

test('the token is write-only: GET /api/config answers token_set, never the token', async () => {
  await setup();
  const { body } = await api<{ notifications: { targets: Record<string, unknown>[] } }>(env.srv.baseUrl, '/api/config');
  const phone = body.data!.notifications.targets.find((t) => t.name === 'phone')!;
  assert.equal(phone.token_set, true);
  assert.equal('token' in phone, false);
  assert.ok(!JSON.stringify(body).includes('tk_secret'));
});

test('POST /api/notifications/test reaches a saved target, and answers the error of a failing one', async () => {
  await setup();
  const before = hook.got.length;
  const ok = await api<NotifyTestResult>(env.srv.baseUrl, '/api/notifications/test', {
    method: 'POST',
    json: { name: 'hook' },
  });
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  assert.deepEqual(ok.body.data, { ok: true, error: null });
  const got = await hook.waitFor(before + 1);
  assert.equal((JSON.parse(got[before]!.body) as NoticeJson).event, 'test');

  const failing = await startReceiver([503]);
  try {
    const bad = await api<NotifyTestResult>(env.srv.baseUrl, '/api/notifications/test', {
      method: 'POST',
      json: { type: 'apprise', url: failing.url('/notify/spool') },
    });
    assert.equal(bad.status, 200);
    assert.deepEqual(bad.body.data, { ok: false, error: 'HTTP 503: receiver says no' });
    assert.deepEqual(JSON.parse(failing.got[0]!.body), {
      title: 'Spool test notification',
      body: 'If you can read this, Spool can reach this target.',
      type: 'info',
    });
  } finally {
    await failing.close();
  }

  const missing = await api(env.srv.baseUrl, '/api/notifications/test', { method: 'POST', json: { name: 'nope' } });
  assert.equal(missing.status, 404);
});
