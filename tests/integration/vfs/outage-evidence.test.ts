import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { startServer } from '../../support/server.js';
import { Relay } from '../../support/tcp-relay.js';
import { api, davGet, innProvider, sha256, upload, waitForItem, type TestServer } from '../import/support.js';
import { film } from '../../support/media/film.js';
import { waitUntil } from '../../support/wait.js';

/**
 * The news server goes away while a file is read: the read fails, but nothing is recorded missing, zero-fill
 * (enabled here) never stands in for the real bytes, and once the server is back the file reads byte-exact.
 * A TCP relay in front of the real INN plays the outage (stop = close the listener and every relayed socket).
 */

let inn: InnServer;
let relay: Relay;
let srv: TestServer;

before(async () => {
  inn = await ensureInn();
  relay = new Relay(inn);
  await relay.start();
  srv = await startServer({
    config: {
      auth: { login_required: false },
      providers: [innProvider(inn, { port: relay.port })],
      import: { queue_processing_interval_seconds: 1, segment_sample_percentage: 100 },
      streaming: { zero_fill_enabled: true, zero_fill_max_articles: 100, zero_fill_max_percent: 100 },
    },
  });
});
after(async () => {
  await srv?.stop();
  await relay?.stop();
});

interface FileInfo {
  status: string;
  segment_count: number;
  available_segments: number;
}

const info = async (path: string) =>
  (await api<FileInfo>(srv.baseUrl, `/api/files/info?path=${encodeURIComponent(path)}`)).body.data!;

test('a provider outage during a read records nothing missing and is never zero-filled', async () => {
  const data = film(28 * 50_000 + 123);
  const posted = await inn.postFile('Outage.Test.mkv', data, { articleSize: 50_000 });
  const up = await upload(srv.baseUrl, 'Outage.Test.nzb', posted.nzbXml);
  const item = await waitForItem(srv.baseUrl, up.body.data!.id);
  assert.equal(item.status, 'completed', item.error_message ?? '');
  const path = `${item.target_path}/Outage.Test.mkv`;
  assert.equal((await info(path)).available_segments, posted.segments.length);

  await relay.stop();
  // A range in the middle (the first and last articles may be served from the probe cache on disk): 502 before the
  // first byte, its first article being unreachable; never 206 with stand-in bytes.
  const during = await fetch(`${srv.baseUrl}/webdav${path}`, {
    headers: { Range: `bytes=${5 * 50_000}-${20 * 50_000 - 1}` },
  });
  assert.equal(during.status, 502, `status ${during.status}`);
  await during.body?.cancel();
  const after = await info(path);
  assert.equal(after.available_segments, posted.segments.length, 'an outage is not a missing article');
  assert.notEqual(after.status, 'partial');
  assert.notEqual(after.status, 'corrupted');

  await relay.start();
  // The pool may have put the provider aside for its cooldown; reads come back once it returns. Until then a whole
  // read fails: a 502, or, its first article served from the probe cache on disk, a connection cut after it.
  const whole = () => davGet(srv.baseUrl, path).catch(() => ({ status: 0, body: Buffer.alloc(0) }));
  let got = await whole();
  await waitUntil(
    () => `a whole read once INN is back (${got.status})`,
    async () => {
      if (got.status !== 200) got = await whole();
      return got.status === 200;
    },
    { everyMs: 1000 },
  );
  assert.equal(got.status, 200);
  assert.equal(sha256(got.body), sha256(data));
  assert.equal((await info(path)).available_segments, posted.segments.length);
});
