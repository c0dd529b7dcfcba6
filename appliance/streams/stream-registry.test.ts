import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ManualClock } from '../clock/manual-clock.js';
import type { StreamOpenedEvent } from '../events/live.wire.js';
import { StreamRegistry } from './stream-registry.js';

const MIB = 1024 * 1024;
const T0 = Date.parse('2026-11-25T10:00:00Z');

function opened(id: string, over: Partial<StreamOpenedEvent> = {}): StreamOpenedEvent {
  const client = { address: '127.0.0.1', user_agent: 'curl/8.5' };
  return { stream_id: id, path: `/movies/${id}.mkv`, via: 'webdav', offset: 0, size: 1024 * MIB, client, ...over };
}
const timings = { ttfb_ms: 40, stalls: 1, stalled_ms: 1500 };

test('opened → progress → closed: listed with its rate and class, then moved to history with its reason', async () => {
  const clock = new ManualClock(T0);
  const r = new StreamRegistry({ clock });
  r.opened(opened('1'));
  assert.equal(r.list()[0]?.reader_class, 'player');
  assert.equal(r.list()[0]?.class_settled, false);
  await clock.advance(1000);
  r.progress({ stream_id: '1', bytes_sent: 2 * MIB, position: 2 * MIB, ...timings });
  await clock.advance(1000);
  r.progress({ stream_id: '1', bytes_sent: 4 * MIB, position: 4 * MIB, ...timings });
  const [s] = r.list();
  assert.equal(s?.bytes_served, 4 * MIB);
  assert.equal(s?.rate_bps, 2 * MIB);
  assert.equal(s?.front, 'webdav');
  assert.equal(s?.stalls, 1);
  await clock.advance(1000);
  r.closed({ stream_id: '1', bytes_sent: 20 * MIB, position: 20 * MIB, reason: 'aborted', ...timings });
  assert.deepEqual(r.list(), []);
  const [h] = r.history();
  assert.equal(h?.reason, 'aborted');
  assert.equal(h?.reader_class, 'player');
  assert.equal(h?.class_settled, true);
  assert.equal(h?.closed_at, new Date(T0 + 3000).toISOString());
});

test('the rate falls to 0 once nothing arrives for the rate window', async () => {
  const clock = new ManualClock(T0);
  const r = new StreamRegistry({ clock });
  r.opened(opened('1'));
  await clock.advance(1000);
  r.progress({ stream_id: '1', bytes_sent: MIB, position: MIB, ...timings });
  await clock.advance(6000);
  assert.equal(r.list()[0]?.rate_bps, 0);
});

test('rclone is told from WebDAV by its user agent; a short head read settles as a scanner', async () => {
  const clock = new ManualClock(T0);
  const r = new StreamRegistry({ clock });
  r.opened(opened('1', { client: { address: '127.0.0.1', user_agent: 'rclone/v1.66.0' } }));
  assert.equal(r.list()[0]?.front, 'rclone');
  await clock.advance(300);
  r.closed({ stream_id: '1', bytes_sent: 256 * 1024, position: 256 * 1024, reason: 'done', ...timings });
  assert.equal(r.history()[0]?.reader_class, 'scanner');
});

test('history is bounded in count and age, newest first', async () => {
  const clock = new ManualClock(T0);
  const r = new StreamRegistry({ clock, historyLimit: 3, historyMaxAgeMs: 60_000 });
  for (const id of ['1', '2', '3', '4']) {
    r.opened(opened(id));
    r.closed({ stream_id: id, bytes_sent: 0, position: 0, reason: 'done', ...timings });
  }
  assert.deepEqual(
    r.history().map((h) => h.id),
    ['4', '3', '2'],
  );
  await clock.advance(60_001);
  assert.deepEqual(r.history(), []);
});

test('bytes per class per day: bytes of a provisional class move when it settles; days roll over in UTC', async () => {
  const clock = new ManualClock(Date.parse('2026-11-25T23:59:00Z'));
  const r = new StreamRegistry({ clock });
  // hops like a probe: provisionally a scanner, then it reads on at length and settles as a player
  r.opened(opened('1', { offset: 1000 * MIB }));
  assert.equal(
    r.classOf('1', { runBytes: 32 * 1024, longestRun: 32 * 1024, jumps: 3, bytesServed: 96 * 1024 }),
    'scanner',
  );
  await clock.advance(500);
  r.progress({ stream_id: '1', bytes_sent: MIB, position: 1001 * MIB, ...timings });
  assert.deepEqual(r.bytesByClass(), [{ day: '2026-11-25', bytes: { player: 0, scanner: MIB } }]);
  await clock.advance(1000);
  r.progress({ stream_id: '1', bytes_sent: 10 * MIB, position: 1010 * MIB, ...timings });
  assert.deepEqual(r.bytesByClass(), [{ day: '2026-11-25', bytes: { player: 10 * MIB, scanner: 0 } }]);
  await clock.advance(60_000);
  r.closed({ stream_id: '1', bytes_sent: 12 * MIB, position: 1012 * MIB, reason: 'done', ...timings });
  assert.deepEqual(r.bytesByClass(), [
    { day: '2026-11-26', bytes: { player: 2 * MIB, scanner: 0 } },
    { day: '2026-11-25', bytes: { player: 10 * MIB, scanner: 0 } },
  ]);
});

const pattern = (runBytes: number, longestRun: number, jumps: number, bytesServed: number) => ({
  runBytes,
  longestRun,
  jumps,
  bytesServed,
});

test('readers behind one pid-0 client (another pid namespace) are classed each by its own reads', async () => {
  const clock = new ManualClock(T0);
  const r = new StreamRegistry({ clock });
  const fuse = { via: 'fuse' as const, client: {} }; // a FUSE reader outside the daemon's pid namespace: no pid
  for (let i = 1; i <= 9; i++) r.opened(opened(String(i), fuse));
  // eight probes hop head, tail and back in short reads; the ninth reads on from a position
  for (let i = 1; i <= 8; i++)
    assert.equal(r.classOf(String(i), pattern(32 * 1024, 160 * 1024, 3, 300 * 1024)), 'scanner');
  assert.equal(r.classOf('9', pattern(2 * MIB, 2 * MIB, 2, 3 * MIB)), 'player');
  await clock.advance(800);
  for (let i = 1; i <= 8; i++)
    r.closed({ stream_id: String(i), bytes_sent: 300 * 1024, position: 0, reason: 'done', ...timings });
  assert.deepEqual(
    r.history().map((h) => h.reader_class),
    Array(8).fill('scanner'),
  );
  assert.equal(r.list()[0]?.reader_class, 'player');
});

test('ten players and a scan from one address and one user agent (a media server, rclone) keep their classes', async () => {
  const clock = new ManualClock(T0);
  const r = new StreamRegistry({ clock });
  const client = { address: '10.0.0.5', user_agent: 'rclone/v1.68.1' };
  // ten viewers, each a GET from its own position; forty probes of other files, each a GET of a head or a tail
  for (let i = 0; i < 10; i++) r.opened(opened(`p${i}`, { client, offset: (i + 1) * 90 * MIB }));
  for (let i = 0; i < 40; i++) {
    const tail = i % 2 === 1;
    r.opened(opened(`s${i}`, { client, path: `/movies/lib${i >> 1}.mkv`, offset: tail ? 1024 * MIB - 64 * 1024 : 0 }));
  }
  for (let i = 0; i < 10; i++) assert.equal(r.classOf(`p${i}`, pattern(0, 0, 0, 0)), 'player', 'at open');
  for (let i = 0; i < 10; i++) assert.equal(r.classOf(`p${i}`, pattern(3 * MIB, 3 * MIB, 0, 3 * MIB)), 'player');
  const classes = (prefix: string) =>
    r
      .list()
      .filter((s) => s.id.startsWith(prefix))
      .map((s) => s.reader_class);
  // a head or a tail alone says nothing yet (players read both before they play); a probe settles when it closes
  assert.deepEqual(classes('s'), Array(40).fill('player'));
  await clock.advance(500);
  for (let i = 0; i < 40; i++)
    r.closed({ stream_id: `s${i}`, bytes_sent: 64 * 1024, position: 0, reason: 'aborted', ...timings });
  assert.ok(r.history().every((h) => h.reader_class === 'scanner'));
  assert.deepEqual(classes('p'), Array(10).fill('player'));
});
test('a file with a known duration shows its media bitrate; a player waiting below it is starved, then recovers', async () => {
  const clock = new ManualClock(T0);
  const r = new StreamRegistry({ clock });
  // 1 GiB over 1024 s: 1 MiB/s
  r.opened(opened('1', { size: 1024 * MIB, duration_seconds: 1024 }));
  assert.equal(r.list()[0]?.media_bitrate_bps, MIB);
  assert.equal(r.list()[0]?.duration_seconds, 1024);
  assert.equal(r.list()[0]?.starved, false, 'not before a whole window');
  const slow = { ...timings, stalls: 0, stalled_ms: 0 };
  for (let i = 1; i <= 6; i++) {
    await clock.advance(1000);
    r.progress({ stream_id: '1', bytes_sent: (i * MIB) / 4, position: (i * MIB) / 4, ...slow, waiting_ms: 1200 });
  }
  const [s] = r.list();
  assert.ok(s!.rate_bps < MIB);
  assert.equal(s?.starved, true);
  // it catches up: past the bitrate, nothing waits
  for (let i = 1; i <= 6; i++) {
    await clock.advance(1000);
    r.progress({ stream_id: '1', bytes_sent: 2 * MIB + i * 2 * MIB, position: 2 * MIB + i * 2 * MIB, ...slow });
  }
  assert.equal(r.list()[0]?.starved, false);
  r.closed({ stream_id: '1', bytes_sent: 20 * MIB, position: 20 * MIB, reason: 'done', ...slow });
  assert.equal(r.history()[0]?.starved, false);
  assert.equal(r.history()[0]?.media_bitrate_bps, MIB);
});

test('paused: no bytes and nothing waiting is not starved; unknown duration has no bitrate', async () => {
  const clock = new ManualClock(T0);
  const r = new StreamRegistry({ clock });
  r.opened(opened('1', { duration_seconds: 1024 }));
  r.opened(opened('2', { path: '/movies/other.mkv' }));
  await clock.advance(1000);
  r.progress({ stream_id: '1', bytes_sent: MIB, position: MIB, ...timings, stalls: 0, stalled_ms: 0 });
  await clock.advance(10_000);
  const [paused, unknown] = r.list();
  assert.equal(paused?.rate_bps, 0);
  assert.equal(paused?.starved, false);
  assert.equal(unknown?.media_bitrate_bps, null);
  assert.equal(unknown?.duration_seconds, null);
});

test("a media server's mixed pattern from one address and agent: its probes settle as scanners, its transcodes and scrubs stay players", async () => {
  const clock = new ManualClock(T0);
  const r = new StreamRegistry({ clock });
  // Jellyfin's ffprobe and its ffmpeg transcoder both send libavformat's agent: it names neither
  const client = { address: '172.18.0.4', user_agent: 'Lavf/60.16.100' };
  const film = { client, path: '/movies/film.mkv' };
  // the transcoder starts a film: a GET of the header, one of the index at the tail, then one it plays from
  r.opened(opened('header', { ...film, offset: 0 }));
  r.opened(opened('index', { ...film, offset: 1023 * MIB }));
  r.opened(opened('play', { ...film, offset: 2 * MIB }));
  // meanwhile the library scan probes other files, a GET of the head, one of the end of the media, one of the tail
  for (let i = 0; i < 3; i++)
    for (const [part, offset] of [
      ['head', 0],
      ['media', 300 * MIB],
      ['tail', 1024 * MIB - 64 * 1024],
    ] as const)
      r.opened(opened(`probe${i}-${part}`, { client, path: `/shows/ep${i}.mkv`, offset }));
  const classOf = (id: string, f: ReturnType<typeof pattern>) => r.classOf(id, f);
  // each GET is one run; none has jumped: all provisional players, however many the one client opened
  assert.equal(classOf('header', pattern(256 * 1024, 256 * 1024, 0, 256 * 1024)), 'player');
  assert.equal(classOf('probe0-head', pattern(32 * 1024, 32 * 1024, 0, 32 * 1024)), 'player');
  assert.equal(classOf('play', pattern(6 * MIB, 6 * MIB, 0, 6 * MIB)), 'player');
  await clock.advance(700);
  for (const id of [
    'header',
    'index',
    ...[0, 1, 2].flatMap((i) => ['head', 'media', 'tail'].map((p) => `probe${i}-${p}`)),
  ])
    r.closed({ stream_id: id, bytes_sent: 64 * 1024, position: 0, reason: 'aborted', ...timings });
  // short GETs that closed quickly settle as scanners: the transcoder's header and index reads too (they are probes
  // of the film, and counted as such), but never the GET it plays from
  assert.ok(r.history().every((h) => h.reader_class === 'scanner'));
  assert.deepEqual(
    r.list().map((s) => [s.id, s.reader_class]),
    [['play', 'player']],
  );
  // the viewer scrubs: the transcoder reads on from a new position, then again; long runs between jumps
  assert.equal(classOf('play', pattern(64 * 1024, 6 * MIB, 1, 7 * MIB)), 'player');
  assert.equal(classOf('play', pattern(4096, 6 * MIB, 5, 7 * MIB + 4096)), 'player');
  assert.equal(classOf('play', pattern(2 * MIB, 6 * MIB, 5, 9 * MIB)), 'player');
  assert.equal(r.list()[0]?.class_settled, true, 'settled once it read more than a scanner would');
  // a scanner through the same server's mount (pid 0, no name): hops head, tail and back in short reads
  r.opened(opened('fuse-probe', { via: 'fuse', client: {}, path: '/shows/ep9.mkv' }));
  assert.equal(classOf('fuse-probe', pattern(32 * 1024, 32 * 1024, 0, 32 * 1024)), 'player');
  assert.equal(classOf('fuse-probe', pattern(0, 160 * 1024, 3, 300 * 1024)), 'scanner');
});
