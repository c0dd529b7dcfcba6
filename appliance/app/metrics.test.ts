import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { EventBus, type SpoolEvents } from '../events/index.js';
import type { PoolMetrics } from '../nntp/index.js';
import { ReadHandles, SEEK_READ_BYTES } from '../vfs/read-handle.js';
import { VfsReader } from '../vfs/reader.js';
import { MapSource, memoryArticles, tempVfs, testReaderSettings } from '../../tests/support/vfs/memory.js';
import { metricsOf, wireMetrics, type MetricsParts } from './metrics.js';
import { wireStreamEvents } from './stream-events.js';
import { wireStreamRegistry } from './streams.js';

// The metrics as app/ feeds them: events move counters and histograms, gauges are read only at scrape time, and
// no label ever carries a file path.
const t = tempVfs();
after(() => t.close());
const MIB = 1024 * 1024;
const bytes = randomBytes(10 * MIB);
const { layout, articles } = memoryArticles(bytes, 700_000);
const PATH = '/complete/secret-dir/J/private-film.mkv';
const sig = new AbortController().signal;

before(async () => {
  await t.vfs.addJob({
    category: 'secret-dir',
    jobName: 'J',
    files: [{ name: 'private-film.mkv', size: bytes.length, layout }],
  });
});

const pool: PoolMetrics = {
  active_connections: 2,
  total_bytes_downloaded: 5000,
  command_success_rate_percent: 100,
  error_rate_percent: 0,
  acquire_wait_time_ms: 0,
  waiting_requests: 3,
  in_flight_commands: 0,
  providers: [
    {
      id: 'main',
      host: 'news.example',
      is_backup_provider: false,
      enabled: true,
      active_connections: 2,
      max_connections: 10,
      allowed_connections: null,
      in_flight_commands: 0,
      bytes_downloaded: 5000,
      commands: 4,
      errors: 0,
      missing_articles: 1,
      missing_rate_percent: 25,
      error_rate_percent: 0,
      rtt_ms: 12,
      state: 'cooling_down',
      cooling_down: true,
      last_error: null,
      health: 'ok',
      reason: null,
    },
  ],
};

function setup(role?: 'leader' | 'follower') {
  const clock = { t: 0, now: () => clock.t };
  const handles = new ReadHandles(new VfsReader(t.vfs, new MapSource(articles), testReaderSettings), clock);
  const reads = { pool: 0, queue: 0, health: 0 };
  const parts: MetricsParts = {
    pool: { metrics: () => (reads.pool++, pool) },
    handles,
    importer: {
      queue: {
        stats: async () => (
          reads.queue++,
          {
            total_queued: 7,
            total_pending: 2,
            total_processing: 1,
            total_retrying: 1,
            total_completed: 2,
            total_failed: 1,
          }
        ),
      } as unknown as MetricsParts['importer']['queue'],
    },
    healthStore: { dueCount: async () => (reads.health++, 4), manualCount: async () => 1 },
    clock,
    ...(role ? { leadership: { role } } : {}),
    probes: { size: 3_000_000, articles: 4, counts: { hits: 40, stored: 6, evicted: 2, damaged: 1 } },
  };
  const bus = new EventBus<SpoolEvents>();
  const streams = wireStreamRegistry(bus, handles, clock);
  const metrics = metricsOf(() => ({ ...parts, streams: streams.registry }));
  const stops = [wireStreamEvents(handles, bus), streams.stop, wireMetrics(bus, metrics)];
  return { clock, handles, metrics, bus, reads, stop: () => stops.forEach((s) => s()) };
}

/** The value of one series in the exposition text, or undefined when absent. */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

test('a seek read through WebDAV moves the stream families, and no label carries its path', async () => {
  const { clock, handles, metrics, stop } = setup();
  const h = handles.open(PATH, 'webdav', { address: '192.0.2.9', userAgent: 'Kodi' }, { offset: MIB });
  clock.t = 300; // the first byte comes 0.3 s after the open
  for await (const c of h.stream(MIB, 9 * MIB, sig)) {
    void c;
    clock.t += 100;
  }
  h.close('done');
  const text = await metrics.scrape();
  assert.equal(value(text, 'spool_stream_first_byte_seconds_count{front="webdav"}'), 1);
  assert.equal(value(text, 'spool_stream_first_byte_seconds_sum{front="webdav"}'), 0.3);
  assert.equal(value(text, 'spool_stream_seek_read_seconds_count{front="webdav"}'), 1);
  // Counted as a player's once the Streams view saw more than a scanner reads (appliance/streams/reader-class.ts).
  const player = value(text, 'spool_stream_bytes_served_total{front="webdav",reader_class="player"}') ?? 0;
  assert.equal(
    player + (value(text, 'spool_stream_bytes_served_total{front="webdav",reader_class="scanner"}') ?? 0),
    9 * MIB,
  );
  assert.ok(player > 0);
  assert.equal(value(text, 'spool_streams_total{front="webdav",outcome="done"}'), 1);
  assert.equal(metrics.streams.tracked, 0, 'a closed stream leaves nothing behind');
  for (const word of ['secret', 'private-film', '192.0.2.9', 'Kodi']) assert.ok(!text.includes(word), word);
  stop();
});

test("a probing tool's bytes count as a scanner's", async () => {
  const { handles, metrics, stop } = setup();
  const h = handles.open(PATH, 'webdav', { userAgent: 'ffprobe/6.0' });
  for await (const c of h.stream(0, MIB, sig)) void c;
  h.close('done');
  const text = await metrics.scrape();
  assert.equal(value(text, 'spool_stream_bytes_served_total{front="webdav",reader_class="scanner"}'), MIB);
  stop();
});

test('a read from byte 0 is no seek', async () => {
  const { handles, metrics, stop } = setup();
  const h = handles.open(PATH, 'fuse', { pid: 7 });
  const target = Buffer.alloc(SEEK_READ_BYTES + MIB);
  await h.readInto(target, 0, target.length, sig);
  h.close('aborted');
  const text = await metrics.scrape();
  assert.equal(value(text, 'spool_stream_seek_read_seconds_count{front="fuse"}'), undefined);
  assert.equal(value(text, 'spool_stream_first_byte_seconds_count{front="fuse"}'), 1);
  assert.equal(value(text, 'spool_streams_total{front="fuse",outcome="aborted"}'), 1);
  stop();
});

test('imports, health checks and repairs are counted by outcome', async () => {
  const { bus, metrics, stop } = setup();
  const item = { id: 1, name: 'n', category: null, paused: false };
  bus.emit('queue.item.changed', { ...item, status: 'processing', previous_status: 'pending' });
  bus.emit('queue.item.changed', { ...item, status: 'completed', previous_status: 'processing' });
  bus.emit('queue.item.changed', { ...item, status: 'failed', previous_status: 'processing' });
  bus.emit('health.check.done', { record_id: 5, outcome: 'corrupted' });
  bus.emit('health.check.done', { record_id: 6, outcome: 'inconclusive' });
  const repair = { record_id: 5, path: PATH, manual: false, reason: null, will_retry: false, method: 'arr' as const };
  bus.emit('repair.requested', repair); // asked, not yet an outcome
  bus.emit('repair.done', repair);
  bus.emit('repair.failed', { ...repair, reason: 'arr down', will_retry: true });
  const text = await metrics.scrape();
  assert.equal(value(text, 'spool_imports_total{outcome="completed"}'), 1);
  assert.equal(value(text, 'spool_imports_total{outcome="failed"}'), 1);
  assert.equal(value(text, 'spool_imports_total{outcome="retrying"}'), 0);
  assert.equal(value(text, 'spool_health_checks_total{outcome="corrupted"}'), 1);
  assert.equal(value(text, 'spool_health_checks_total{outcome="inconclusive"}'), 1);
  assert.equal(value(text, 'spool_health_checks_total{outcome="healthy"}'), 0);
  assert.equal(value(text, 'spool_repairs_total{outcome="triggered"}'), 1);
  assert.equal(value(text, 'spool_repairs_total{outcome="retrying"}'), 1);
  assert.equal(value(text, 'spool_repairs_total{outcome="failed"}'), 0);
  assert.ok(!text.includes('secret'));
  stop();
});

test("a provider's commands give its latency and its missing and damaged articles", async () => {
  const { metrics } = setup();
  metrics.commandDone({ providerId: 'main', command: 'body', ms: 40, outcome: 'ok' });
  metrics.commandDone({ providerId: 'main', command: 'body', ms: 20, outcome: 'damaged' });
  metrics.commandDone({ providerId: 'main', command: 'stat', ms: 5, outcome: 'missing' });
  const text = await metrics.scrape();
  const body = 'provider="main",command="body"';
  assert.equal(value(text, `spool_provider_article_seconds_count{${body},outcome="ok"}`), 1);
  assert.equal(value(text, `spool_provider_article_seconds_sum{${body},outcome="ok"}`), 0.04);
  assert.equal(value(text, `spool_provider_articles_total{${body},outcome="damaged"}`), 1);
  assert.equal(value(text, 'spool_provider_articles_total{provider="main",command="stat",outcome="missing"}'), 1);
});

test('gauges are read only when scraped', async () => {
  const { reads, handles, metrics, stop } = setup();
  const h = handles.open(PATH, 'webdav', {});
  assert.deepEqual(reads, { pool: 0, queue: 0, health: 0 });
  const text = await metrics.scrape();
  assert.ok(reads.pool > 0 && reads.queue === 1 && reads.health === 1);
  assert.equal(value(text, 'spool_streams_open{front="webdav"}'), 1);
  assert.equal(value(text, 'spool_streams_open{front="fuse"}'), 0);
  assert.equal(value(text, 'spool_provider_connections{provider="main",state="cooling_down"}'), 2);
  assert.equal(value(text, 'spool_provider_up{provider="main"}'), 0);
  assert.equal(value(text, 'spool_provider_bytes_fetched_total{provider="main"}'), 5000);
  assert.equal(value(text, 'spool_queue_items{status="pending"}'), 2);
  assert.equal(value(text, 'spool_health_due_files'), 5);
  assert.equal(value(text, 'spool_pool_waiting_requests'), 3);
  assert.equal(value(text, 'spool_node_leader'), 1, 'one node alone leads');
  h.close();
  stop();
});

test('spool_node_leader says whether this node holds the leader lease', async () => {
  for (const [role, expected] of [
    ['leader', 1],
    ['follower', 0],
  ] as const) {
    const { metrics, stop } = setup(role);
    assert.equal(value(await metrics.scrape(), 'spool_node_leader'), expected);
    stop();
  }
});

test("the probe cache's size and counts are read at scrape", async () => {
  const { metrics, stop } = setup();
  const text = await metrics.scrape();
  assert.equal(value(text, 'spool_probe_cache_bytes'), 3_000_000);
  assert.equal(value(text, 'spool_probe_cache_articles'), 4);
  assert.equal(value(text, 'spool_probe_cache_events_total{event="hits"}'), 40);
  assert.equal(value(text, 'spool_probe_cache_events_total{event="stored"}'), 6);
  assert.equal(value(text, 'spool_probe_cache_events_total{event="evicted"}'), 2);
  assert.equal(value(text, 'spool_probe_cache_events_total{event="damaged"}'), 1);
  stop();
});
