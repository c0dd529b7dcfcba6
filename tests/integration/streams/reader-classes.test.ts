import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { StreamsHistoryResponse, StreamsResponse, StreamInfo } from '../../../appliance/streams/streams.wire.js';
import { startChildServer, type ChildServer } from '../../support/child-server.js';
import { removeMountPoint, tempMountPoint } from '../../support/fuse/mount-point.js';
import { buildNzb } from '../../support/inn/poster.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { innProvider, upload, waitForItem } from '../import/support.js';
import { film } from '../../support/media/film.js';

// Reader classes as a new user's home has them (issue 31): Spool in its own pid namespace (a container), so every
// reader through the mount reaches it as pid 0 with no process name; and many readers over WebDAV from one address
// with one user agent (a media server, rclone). Each open is classed by its own reads, never by the other files the
// same client opened. The real process (a child, under `unshare --pid --fork`), the real mount, a real INN.
const MIB = 1024 * 1024;
const SIZE = 12 * MIB;
const NAMES = ['probe-a.mkv', 'probe-b.mkv', 'probe-c.mkv', 'film.mkv'];
const ONE_AGENT = 'rclone/v1.68.2';
/** A film of small articles for the start-up test: each of its reads (128 KiB at most) spans a few of them. */
const PLAYER = 'player.mkv';
const PLAYER_ARTICLE = 64_000;
let inn: InnServer;
let srv: ChildServer;
let mnt: string;
let dataDir: string;
let folder = '';

before(async () => {
  inn = await ensureInn();
  const posted = [];
  for (const name of NAMES) posted.push(await inn.postFile(name, film(SIZE, name), { articleSize: 256_000 }));
  posted.push(await inn.postFile(PLAYER, film(SIZE, PLAYER), { articleSize: PLAYER_ARTICLE }));
  mnt = tempMountPoint('spool-mnt-classes-');
  dataDir = mkdtempSync(join(tmpdir(), 'spool-classes-data-'));
  srv = await startChildServer({
    dataDir,
    wrap: ['unshare', '--pid', '--fork', '--kill-child'],
    config: {
      auth: { login_required: false },
      mount_path: mnt,
      rclone: { mount_enabled: true },
      providers: [innProvider(inn, { max_connections: 4 })],
      import: { queue_processing_interval_seconds: 1, allowed_file_extensions: [] },
    },
  });
  const queued = await upload(srv.baseUrl, 'Classes.2024.nzb', buildNzb(posted, inn.group, 'Spool <t@spool.test>'), {
    category: 'movies',
  });
  assert.equal(queued.status, 200, JSON.stringify(queued.body));
  const item = await waitForItem(srv.baseUrl, queued.body.data!.id);
  assert.equal(item.status, 'completed', item.error_message ?? '');
  folder = item.target_path!;
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${srv.baseUrl}/api/rclone/mount/status`);
    if (((await res.json()) as { data: { mounted: boolean } }).data.mounted) break;
    await new Promise((r) => setTimeout(r, 100));
  }
});
after(async () => {
  await srv?.stop();
  await removeMountPoint(mnt);
  rmSync(dataDir, { recursive: true, force: true });
});

async function apiGet<T>(p: string): Promise<T> {
  const res = await fetch(srv.baseUrl + p);
  assert.equal(res.status, 200);
  return ((await res.json()) as { data: T }).data;
}

/**
 * Polls `probe` until it finds `what`. A wait that never ends fails with the test's timeout, not before; every 30 s
 * it says what it still waits for, so that failure names its cause.
 */
async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  for (let polls = 1; ; polls++) {
    const v = await probe();
    if (v !== undefined) return v;
    if (polls % 600 === 0) console.error(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** ffprobe's reads of a file (strace): 32 KiB at the head, the end of the media, the tail, back to the head. */
async function probeThroughMount(name: string): Promise<void> {
  const fh = await open(join(mnt, folder, name), 'r');
  const buf = Buffer.alloc(32 * 1024);
  try {
    for (const at of [0, 952_932, SIZE - 7_290, 44]) await fh.read(buf, 0, buf.length, at);
  } finally {
    await fh.close();
  }
}

test('in its own pid namespace (readers reach it as pid 0), probes are scanners and a reader reading on is a player', async () => {
  for (const name of NAMES.slice(0, 3)) await probeThroughMount(name);
  const fh = await open(join(mnt, folder, 'film.mkv'), 'r');
  try {
    const buf = Buffer.alloc(256 * 1024);
    for (let at = 0; at < 3 * MIB; at += buf.length) await fh.read(buf, 0, buf.length, at);
    // the fourth file this pid-0 "client" opened within seconds, read on from a position: a player
    const film = await until('the film listed as a player', async () => {
      const { streams } = await apiGet<StreamsResponse>('/api/streams');
      const s = streams.find((x) => x.path.endsWith('/film.mkv'));
      // reads the kernel served from the native window are counted at release, so while open the class is the sign
      return s && (s.reader_class === 'player' || s.bytes_served >= 3 * MIB) ? s : undefined;
    });
    assert.equal(film.reader_class, 'player');
    assert.equal(film.front, 'fuse');
    assert.equal(film.client.pid, undefined, 'outside the pid namespace: no pid to go by');
  } finally {
    await fh.close();
  }
  // A file goes to the history once its last handle is released (FUSE sends the release after close returns).
  const probes = await until('the three probes in the history', async () => {
    const { streams } = await apiGet<StreamsHistoryResponse>('/api/streams/history');
    const found = streams.filter((x) => /probe-/.test(x.path));
    return found.length >= 3 ? found : undefined;
  });
  assert.equal(probes.length, 3);
  for (const p of probes) {
    assert.equal(p.reader_class, 'scanner', p.path);
    assert.equal(p.client.pid, undefined);
    assert.equal(p.client.user_agent, undefined, 'no process name either');
  }
});

test("in its own pid namespace, a player's return from its index to bytes its header read fetched reads on ahead", async () => {
  // Reads of 128 KiB at most (the kernel sends each as one FUSE read): articles 0-2 are the header's, 3 its read-ahead.
  const A = PLAYER_ARTICLE;
  const header = 128 * 1024;
  const fh = await open(join(mnt, folder, PLAYER), 'r');
  const buffered = (what: string, bytes: number) =>
    until(what, async () => {
      const { streams } = await apiGet<StreamsResponse>('/api/streams');
      const s = streams.find((x) => x.path.endsWith(`/${PLAYER}`));
      return s && (s.buffered_bytes ?? 0) >= bytes ? s : undefined;
    });
  try {
    const buf = Buffer.alloc(header);
    await fh.read(buf, 0, header, 0);
    await buffered('the header read ahead (article 3) in memory', 4 * A - header);
    await fh.read(buf, 0, header, SIZE - header); // the index at the tail: a seek
    // Back to play at the header's end, up to where article 3 ends: every byte of it in memory, so the read never
    // waits for the network. What it earned (one article: its 120 KiB) is fetched ahead of it: article 4.
    const back = 4 * A - 2048 - header;
    assert.equal((await fh.read(buf, 0, back, header)).bytesRead, back);
    const s = await buffered('article 4 read ahead past the return', 5 * A - (header + back));
    assert.equal(s.reader_class, 'player');
    assert.equal(s.client.pid, undefined, 'outside the pid namespace: no pid to go by');
  } finally {
    await fh.close();
  }
});

/** A GET from `offset` with the one user agent, read until `bytes` arrived; then paused (still open). */
function viewer(name: string, offset: number, bytes: number): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const url = `${srv.baseUrl}/webdav${folder}/${name}`.split(' ').join('%20');
    const req = http.get(url, { headers: { 'User-Agent': ONE_AGENT, Range: `bytes=${offset}-` } }, (res) => {
      let got = 0;
      res.on('data', (d: Buffer) => {
        got += d.length;
        if (got >= bytes) {
          res.pause();
          resolve(req);
        }
      });
      res.on('end', () => reject(new Error(`the GET of ${name} ended at ${got}`)));
    });
    req.on('error', reject);
  });
}

test('ten viewers and probes from one address and one user agent: each GET classed by its own reads', async () => {
  // probes first: heads and tails of three files, dropped after 32 KiB
  for (const name of NAMES.slice(0, 3))
    for (const at of [0, SIZE - 64 * 1024]) (await viewer(name, at, 32 * 1024)).destroy();
  // The probes by id: a dropped GET may have been pushed megabytes into its socket before its client went, so its
  // bytes served do not tell it from a viewer. Each is registered when its request arrives, before its first byte.
  const probeIds = new Set(
    [
      ...(await apiGet<StreamsResponse>('/api/streams')).streams,
      ...(await apiGet<StreamsHistoryResponse>('/api/streams/history')).streams,
    ]
      .filter((x) => x.front === 'rclone')
      .map((x) => x.id),
  );
  assert.equal(probeIds.size, 6, 'six probes registered');
  const reqs: http.ClientRequest[] = [];
  try {
    for (let i = 0; i < 10; i++) reqs.push(await viewer(NAMES[i % 4]!, i * 256 * 1024, 2 * MIB));
    const open = await until('ten viewers listed', async () => {
      const { streams } = await apiGet<StreamsResponse>('/api/streams');
      const mine = streams.filter((x) => x.front === 'rclone' && !probeIds.has(x.id) && x.bytes_served >= 2 * MIB);
      return mine.length === 10 ? mine : undefined;
    });
    assert.deepEqual(
      open.map((s: StreamInfo) => s.reader_class),
      Array(10).fill('player'),
    );
    assert.ok(open.every((s) => s.client.user_agent === ONE_AGENT && s.client.address === '127.0.0.1'));
  } finally {
    for (const r of reqs) r.destroy();
  }
  // A GET goes to the history once the server has seen its client go (on a busy machine, after this test looks).
  const probes = await until('the six probes in the history', async () => {
    const { streams } = await apiGet<StreamsHistoryResponse>('/api/streams/history');
    const found = streams.filter((x) => probeIds.has(x.id));
    return found.length >= 6 ? found : undefined;
  });
  assert.equal(probes.length, 6);
  assert.ok(
    probes.every((p) => p.reader_class === 'scanner'),
    probes.map((p) => p.reader_class).join(' '),
  );
});
