import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, test } from 'node:test';
import { socketHoldBytes } from '../../../appliance/http/socket-hold.js';
import type { FetchHow, Lease } from '../../../appliance/vfs/article-fetcher.js';
import { UNPROVEN_BURST } from '../../../appliance/vfs/stream-window.js';
import type { PoolMetrics } from '../../../appliance/nntp/index.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { innProvider } from '../../support/inn/provider.js';
import { film } from '../../support/media/film.js';
import { startServer, type TestServer } from '../../support/server.js';
import { waitUntil } from '../../support/wait.js';
import { addPosted, davUrl } from './support.js';

// What an unproven GET may fetch (docs/streaming.md): a GET whose client stops reading (ffprobe holds each GET open
// until its next one answers) costs the provider link no more than what its connection took plus its first burst,
// while a reader of the same file, from the same address and user agent, keeps being fed. Real INN, real HTTP.
const MIB = 1024 * 1024;
const ARTICLE = 256_000;
const SIZE = 24 * MIB; // 99 articles: far more than a held connection takes
const AGENT = 'rclone/v1.68.2'; // one user agent for every reader, as a media server or rclone
let inn: InnServer;
let srv: TestServer;
let file: Buffer;
let path: string;
/** A second file, for the reader at full speed (none of its articles in the cache from the first). */
let fastPath: string;
const FAST_SIZE = 12 * MIB;
/** Article fetches each read handle asked the reader's fetcher for (its one door to the pool). */
const asked = new Map<number, number>();

before(async () => {
  inn = await ensureInn();
  file = film(SIZE);
  const posted = await inn.postFile('Held (2024).mkv', file, { articleSize: ARTICLE });
  srv = await startServer({ config: { auth: { login_required: false }, providers: [innProvider(inn)] } });
  [path] = (await addPosted(srv, 'movies', 'Held.2024', [posted])) as [string];
  const fast = await inn.postFile('Fast (2024).mkv', film(FAST_SIZE), { articleSize: ARTICLE });
  [fastPath] = (await addPosted(srv, 'movies', 'Fast.2024', [fast])) as [string];
  const fetcher = srv.app().streaming.reader.fetcher;
  const get = fetcher.get.bind(fetcher);
  fetcher.get = (id: string, signal: AbortSignal, size?: number, groups?: string[], how?: FetchHow): Promise<Lease> => {
    if (how?.stream !== undefined) asked.set(how.stream, (asked.get(how.stream) ?? 0) + 1);
    return get(id, signal, size, groups, how);
  };
});
after(() => srv?.stop());

/** An open-ended GET from `offset` read until `bytes` arrived, then no more (the connection stays open). */
function heldGet(offset: number, bytes: number, of = path): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = http.get(davUrl(srv, of), { headers: { 'User-Agent': AGENT, Range: `bytes=${offset}-` } }, (res) => {
      let got = 0;
      res.on('data', (d: Buffer) => {
        got += d.length;
        if (got >= bytes && !res.isPaused()) {
          res.pause();
          resolve(req);
        }
      });
    });
    req.on('error', reject);
  });
}

/** An open-ended GET from `offset` read for `bytes` at about `rate` bytes a second; the bytes it got. */
function pacedGet(offset: number, bytes: number, rate: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = http.get(davUrl(srv, path), { headers: { 'User-Agent': AGENT, Range: `bytes=${offset}-` } }, (res) => {
      const parts: Buffer[] = [];
      let got = 0;
      const t0 = performance.now();
      res.on('data', (d: Buffer) => {
        parts.push(d);
        got += d.length;
        if (got >= bytes) {
          req.destroy();
          resolve(Buffer.concat(parts).subarray(0, bytes));
          return;
        }
        const ahead = got / rate - (performance.now() - t0) / 1000; // seconds read ahead of the pace
        if (ahead > 0) {
          res.pause();
          setTimeout(() => res.resume(), ahead * 1000);
        }
      });
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

async function poolMetrics(): Promise<PoolMetrics> {
  const res = await fetch(`${srv.baseUrl}/api/system/pool/metrics`);
  return ((await res.json()) as { data: PoolMetrics }).data;
}

const openStreams = () => srv.app().streaming.handles.snapshots();

test('a GET held after 64 KiB: its socket takes at most the hold, and costs the link no more than that plus its first burst; a paced reader of the same file is fed', async (t) => {
  assert.ok(socketHoldBytes() < 2 * MIB, `the listening socket's small send buffer is set: hold ${socketHoldBytes()}`);
  const downloadedBefore = (await poolMetrics()).total_bytes_downloaded;
  const held = await heldGet(0, 64 * 1024);
  try {
    const stream = await waitUntil('the held GET open', () => openStreams().find((s) => s.offset > 0));
    await waitUntil('the pool idle after the held GET took its first articles', async () => {
      const m = await poolMetrics();
      return m.in_flight_commands === 0 && m.waiting_requests === 0;
    });
    // fetched first, served after: what the socket took only grows, so the bound holds whatever ran in between
    const downloaded = (await poolMetrics()).total_bytes_downloaded - downloadedBefore;
    const served = openStreams().find((x) => x.id === stream.id)!.bytesServed;
    const taken = Math.ceil(served / ARTICLE);
    const heldAsked = asked.get(stream.id) ?? 0;
    assert.ok(heldAsked <= taken + UNPROVEN_BURST + 1, `${heldAsked} articles asked for ${taken} handed to the socket`);
    assert.ok(downloaded <= (taken + UNPROVEN_BURST + 1) * ARTICLE, `the pool fetched ${downloaded} bytes for it`);

    // a player of the same file from the same client reads 10 MiB from the middle, paced, while the GET stays held:
    // the held connection has all that time to fill
    const from = 12 * MIB;
    const got = await pacedGet(from, 10 * MIB, 16 * MIB);
    assert.ok(got.equals(file.subarray(from, from + 10 * MIB)), 'every byte, byte-exact');
    const after = openStreams().find((x) => x.id === stream.id)!;
    t.diagnostic(
      `held: ${after.bytesServed} served, ${asked.get(stream.id)} articles asked, hold ${socketHoldBytes()}`,
    );
    // what the handle served is what the socket took plus at most the article the body loop holds
    assert.ok(
      after.bytesServed <= socketHoldBytes() + ARTICLE,
      `the held socket took ${after.bytesServed}; a connection holds at most ${socketHoldBytes()}`,
    );
    const bound = Math.ceil((socketHoldBytes() + 64 * 1024) / ARTICLE) + UNPROVEN_BURST + 1;
    assert.ok((asked.get(stream.id) ?? 0) <= bound, `held: ${asked.get(stream.id)} articles asked, at most ${bound}`);
    assert.ok(
      (asked.get(stream.id) ?? 0) <= Math.ceil(after.bytesServed / ARTICLE) + UNPROVEN_BURST + 1,
      'still no more than its socket took plus its first burst',
    );
  } finally {
    held.destroy();
  }
});

test('a client reading at full speed is proven once its socket took the hold: its fetches widen', async (t) => {
  const hold = socketHoldBytes();
  assert.ok(hold < 2 * MIB, `the listening socket's small send buffer is set: hold ${hold}`);
  let stream: number | undefined;
  const firstWide = await new Promise<{ read: number; served: number; asked: number }>((resolve, reject) => {
    const req = http.get(davUrl(srv, fastPath), { headers: { 'User-Agent': AGENT } }, (res) => {
      let read = 0;
      res.on('data', (d: Buffer) => {
        read += d.length;
        stream ??= openStreams().find((s) => s.path === fastPath)?.id;
        const s = openStreams().find((x) => x.id === stream);
        if (!s) return;
        const n = asked.get(s.id) ?? 0;
        // unproven, a read from byte 0 keeps UNPROVEN_BURST articles ahead of what its socket took, never more
        if (n > Math.ceil(s.bytesServed / ARTICLE) + UNPROVEN_BURST + 1) {
          req.destroy();
          resolve({ read, served: s.bytesServed, asked: n });
        }
      });
      res.on('end', () => reject(new Error(`read all ${read} bytes and its fetches never widened`)));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  t.diagnostic(`widened: ${JSON.stringify(firstWide)}, hold ${hold}`);
  assert.ok(
    firstWide.read <= hold + 2 * ARTICLE,
    `widened (${firstWide.asked} articles asked for ${firstWide.served} served) after the client read ${firstWide.read}; hold ${hold}`,
  );
});
