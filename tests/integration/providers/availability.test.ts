import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { AvailabilityResponse } from '../../../appliance/providers/availability.wire.js';
import { stopInnEntirely } from '../../support/inn/outage.js';
import { innProvider } from '../../support/inn/provider.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { api, startServer, type TestServer } from '../../support/server.js';
import { davGet, sha256, upload, waitForItem } from '../import/support.js';
import { film } from '../../support/media/film.js';

// Issue 33 item 4: availability from real traffic. Two real INN servers: `empty` (first in the list, asked first)
// holds none of the file's articles, `full` (the shared INN) holds them all. Reading the file over WebDAV asks
// `empty` for every article (a 430 each) and then `full` (the body): the console's table and /metrics must say
// `empty` had none and `full` had every one, in the post-age band of the NZB's post date (posted just now: 0-30 days).
const root = `/var/tmp/spool-inn-availability-${process.pid}`;
const NAME = 'Availability.Test.2026.mkv';
const data = film(5 * 768_000 + 17, NAME);
let empty: InnServer;
let full: InnServer;
let srv: TestServer;

before(async () => {
  full = await ensureInn();
  empty = await ensureInn(root);
  srv = await startServer({
    config: {
      auth: { login_required: false },
      providers: [innProvider(empty, { id: 'empty' }), innProvider(full, { id: 'full' })],
      import: { queue_processing_interval_seconds: 1, segment_sample_percentage: 100 },
      // every article of the read from the providers (the probe cache would serve the first and last from disk)
      streaming: { probe_cache_size_mb: 0 },
    },
  });
});
after(async () => {
  await srv?.stop();
  await stopInnEntirely(root);
  rmSync(root, { recursive: true, force: true });
});

test('a read counts a 430 against the provider without the article and a body for the one with it', async () => {
  const posted = await full.postFile(NAME, data);
  const up = await upload(srv.baseUrl, 'Availability.Test.2026.nzb', posted.nzbXml);
  assert.equal(up.status, 200, JSON.stringify(up.body));
  const item = await waitForItem(srv.baseUrl, up.body.data!.id);
  assert.equal(item.status, 'completed', item.error_message ?? '');
  const read = await davGet(srv.baseUrl, `${item.target_path}/${NAME}`);
  assert.equal(read.status, 200);
  assert.equal(sha256(read.body), sha256(data));

  const res = await api<AvailabilityResponse>(srv.baseUrl, '/api/providers/availability');
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const byId = new Map(res.body.data!.providers.map((p) => [p.provider, p.windows]));
  const emptyNew = byId.get('empty')!['7']['0-30d'];
  const fullNew = byId.get('full')!['7']['0-30d'];
  // Every article the reader fetched was asked of `empty` first (430), then of `full` (its body).
  assert.ok(fullNew.had >= posted.segments.length, JSON.stringify(fullNew));
  assert.deepEqual(fullNew, { had: fullNew.had, missing: 0, share: 1 });
  assert.deepEqual(emptyNew, { had: 0, missing: fullNew.had, share: 0 });
  assert.deepEqual(byId.get('full')!['30']['0-30d'], fullNew);

  const metrics = await fetch(`${srv.baseUrl}/metrics`);
  const text = await metrics.text();
  assert.match(text, /spool_provider_availability_ratio\{provider="full",age="0-30d",window="7d"\} 1\n/);
  assert.match(text, /spool_provider_availability_ratio\{provider="empty",age="0-30d",window="7d"\} 0\n/);
  const missing = new RegExp(
    `spool_provider_availability_articles\\{provider="empty",age="0-30d",window="30d",answer="missing"\\} ${fullNew.had}\\n`,
  );
  assert.match(text, missing);
});
