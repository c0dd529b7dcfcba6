import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ProviderStateEvent } from '../../../appliance/events/live.wire.js';
import type { PoolMetrics } from '../../../appliance/nntp/index.js';
import { Relay } from '../../support/tcp-relay.js';
import { api, davGet, importServerOverInn, sha256, upload, waitForItem } from '../import/support.js';
import { film } from '../../support/media/film.js';

// Issue 21: an account capped at 3 connections answers "481 Too many connections" to the 4th. An NZB imported over
// the test INN, then read over WebDAV through a relay that plays that cap in front of INN, with max_connections 8:
// the read is byte-exact and the provider keeps serving (docs/nntp.md, "Connection caps").
const env = importServerOverInn();

test('a read through an account capped at 3 connections (max_connections 8) is byte-exact; the cap is learned', async () => {
  const data = film(6 * 1024 * 1024 + 999);
  const posted = await env.inn.postFile('Capped.Movie.2024.mkv', data, { articleSize: 256_000 });
  const up = await upload(env.srv.baseUrl, 'Capped.Movie.2024.nzb', posted.nzbXml, { category: 'movies' });
  assert.equal(up.status, 200, JSON.stringify(up.body));
  const item = await waitForItem(env.srv.baseUrl, up.body.data!.id);
  assert.equal(item.status, 'completed', item.error_message ?? '');

  // The provider now goes through the capping relay: new connection settings, so the pool starts afresh there.
  const relay = new Relay({ host: env.inn.host, port: env.inn.port }, { cap: 3 });
  await relay.start();
  const changes: ProviderStateEvent[] = [];
  // The cap is learned once every connection then opening has settled (docs/nntp.md, "Connection caps"): one
  // opened ahead of need may still wait for its greeting when the read is done, so the test waits for the event.
  let capLearned!: () => void;
  const learned = new Promise<void>((resolve) => (capLearned = resolve));
  const unsubscribe = env.srv.app().events.on('provider.state.changed', (e) => {
    changes.push(e);
    if (e.id === 'inn' && e.allowed_connections !== null) capLearned();
  });
  try {
    const put = await api(env.srv.baseUrl, '/api/providers/inn', {
      method: 'PUT',
      json: { host: '127.0.0.1', port: relay.port, max_connections: 8 },
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));

    const got = await davGet(env.srv.baseUrl, `${item.target_path}/Capped.Movie.2024.mkv`);
    assert.equal(got.status, 200);
    assert.equal(sha256(got.body), sha256(data));

    assert.ok(relay.counts.refused > 0, 'the relay refused connections over the cap');
    assert.ok(relay.counts.maxActive <= 3, `${relay.counts.maxActive} relayed at once`);
    await learned;
    const metrics = await api<PoolMetrics>(env.srv.baseUrl, '/api/system/pool/metrics');
    const inn = metrics.body.data!.providers.find((p) => p.id === 'inn')!;
    assert.equal(inn.cooling_down, false, 'not put aside');
    assert.equal(inn.allowed_connections, 3);
    assert.equal(inn.max_connections, 8);
    assert.doesNotMatch(inn.last_error ?? '', /Authentication failed/);
    // Once per change, on the event bus too.
    assert.deepEqual(
      changes.map((e) => [e.id, e.state, e.allowed_connections, e.max_connections]),
      [['inn', 'usable', 3, 8]],
    );
  } finally {
    unsubscribe();
    await relay.stop();
  }
});
