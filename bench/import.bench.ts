/**
 * Import benchmarks (docs/performance.md, "Import"):
 *  1. LMDB write of the metadata of a 70,000-article file (generated 50 GB NZB): target under 1 s.
 *  2. GET /api/queue p50/p99 with 100,000 queue items on the real server: target p99 under 20 ms.
 *  3. A posted file imported end to end through the real server against the local INN (first article, 100%
 *     STAT probe, layout, VFS write), beside the raw pool time of the same network work.
 * SPOOL_BENCH_IMPORT_MB sets the size of the posted file (default 256).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NntpPool } from '../appliance/nntp/index.js';
import { QueueTables } from '../appliance/importer/queue.store.js';
import { layoutFromFirstAndLast, parseNzb } from '../appliance/nzb/index.js';
import { openStore } from '../appliance/store/index.js';
import { LmdbTreeStore } from '../appliance/vfs/tree.store.js';
import { VfsService } from '../appliance/vfs/vfs.service.js';
import { ensureInn } from '../tests/support/inn/server.js';
import { generateLargeNzb } from '../tests/support/nzb/generate.js';
import { startServer } from '../tests/support/server.js';
import { innProvider, upload, waitForItem } from '../tests/integration/import/support.js';
import { film } from '../tests/support/media/film.js';
import { openTreeNodes } from '../appliance/vfs/tree-nodes.store.js';

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function layoutWrite(log: (m: string) => void): Promise<string[]> {
  const gen = generateLargeNzb({ articles: 70_000 });
  const doc = parseNzb(gen.xml);
  const file = doc.files[0]!;
  const outcome = layoutFromFirstAndLast(file, gen.files[0]!.first, gen.files[0]!.last);
  if (outcome.kind !== 'ok') throw new Error(outcome.reason);
  const dir = mkdtempSync(join(tmpdir(), 'spool-bench-import-'));
  const store = openStore({ rootPath: dir });
  try {
    const vfs = new VfsService({
      tree: new LmdbTreeStore({ nodes: openTreeNodes(store), layouts: store.openDb('vfs-layouts') }),
      sidecarDir: join(dir, 'sc'),
    });
    const rows: string[] = [];
    for (let run = 0; run < 3; run++) {
      const t0 = performance.now();
      const layout = outcome.layout;
      const t1 = performance.now();
      await vfs.addJob({
        category: 'bench',
        jobName: `job-${run}`,
        files: [{ name: 'big.mkv', size: outcome.layout.size, layout }],
      });
      const t2 = performance.now();
      log(`70k layout: convert ${ms(t1 - t0)}, LMDB write ${ms(t2 - t1)}`);
      rows.push(
        `| 70,000-article layout (${(outcome.layout.size / 1e9).toFixed(0)} GB), run ${run + 1} | ${ms(t1 - t0)} | ${ms(t2 - t1)} | < 1000 ms |`,
      );
    }
    return ['| What | Convert to VFS form | LMDB write (addJob) | Target |', '|---|---|---|---|', ...rows];
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function queueList(log: (m: string) => void): Promise<string[]> {
  const srv = await startServer({ config: { auth: { login_required: false } } });
  try {
    const repo = new QueueTables(srv.app().store);
    const store = srv.app().store;
    const t0 = performance.now();
    const base = Date.now() - 100_000_000;
    for (let b = 0; b < 100; b++) {
      store.transaction(() => {
        for (let i = b * 1000; i < (b + 1) * 1000; i++) {
          const at = base + i * 1000;
          // Completed and failed only: the runner leaves them alone while we measure.
          repo.insert({
            nzbPath: `/nzbs/Some.Show.S${String(i % 40).padStart(2, '0')}E${String(i % 99).padStart(2, '0')}.Release.${i}.1080p.nzb`,
            name: `Some.Show.Release.${i}`,
            category: i % 3 === 0 ? 'movies' : 'tv',
            priority: 0,
            status: i % 10 === 0 ? 'failed' : 'completed',
            targetPath: `/complete/tv/Some.Show.Release.${i}`,
            fileSize: 1e9,
            retryCount: 0,
            maxRetries: 3,
            errorMessage: i % 10 === 0 ? 'Missing articles' : null,
            nextAttemptAt: null,
            contentHash: String(i),
            createdAt: at,
            updatedAt: at,
            startedAt: at,
            completedAt: at,
          });
        }
      });
    }
    log(`inserted 100,000 items in ${ms(performance.now() - t0)}`);
    const rows: string[] = [];
    for (const [label, query] of [
      ['first page', '/api/queue?limit=20&offset=0'],
      ['deep page (offset 50,000)', '/api/queue?limit=20&offset=50000'],
      ['status=failed, page 100', '/api/queue?status=failed&limit=20&offset=2000'],
      ['since (last 10,000)', `/api/queue?limit=20&since=${new Date(base + 90_000_000).toISOString()}`],
      ['search "s07e42"', '/api/queue?limit=20&search=s07e42'],
      ['stats', '/api/queue/stats'],
    ] as const) {
      const times: number[] = [];
      for (let i = 0; i < 300; i++) {
        const t = performance.now();
        const res = await fetch(`${srv.baseUrl}${query}`);
        await res.arrayBuffer();
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      log(`${label}: p50 ${ms(pct(times, 50))} p99 ${ms(pct(times, 99))}`);
      rows.push(`| ${label} | ${ms(pct(times, 50))} | ${ms(pct(times, 99))} | < 20 ms |`);
    }
    return ['| GET with 100,000 items | p50 | p99 | Target (p99) |', '|---|---|---|---|', ...rows];
  } finally {
    await srv.stop();
  }
}

async function importEndToEnd(log: (m: string) => void): Promise<string[]> {
  const mb = Number(process.env.SPOOL_BENCH_IMPORT_MB ?? 256);
  const inn = await ensureInn();
  const data = film(mb * 1024 * 1024);
  const posted = await inn.postFile(`Bench.Import.${mb}MB.mkv`, data);
  const srv = await startServer({
    config: {
      auth: { login_required: false },
      providers: [innProvider(inn)],
      import: { queue_processing_interval_seconds: 1, segment_sample_percentage: 100 },
    },
  });
  const rows: string[] = [];
  try {
    const t0 = performance.now();
    const up = await upload(srv.baseUrl, `Bench.Import.${mb}MB.nzb`, posted.nzbXml);
    const item = await waitForItem(srv.baseUrl, up.body.data!.id, undefined, { hungAfterMs: 300_000 });
    const total = performance.now() - t0;
    if (item.status !== 'completed') throw new Error(item.error_message ?? item.status);
    log(`import of ${mb} MB (${posted.segments.length} articles): ${ms(total)}`);
    rows.push(
      `| Import end to end (upload → completed, 100% STAT probe), ${mb} MiB, ${posted.segments.length} articles | ${ms(total)} |`,
    );
  } finally {
    await srv.stop();
  }
  const pool = new NntpPool([innProvider(inn)]);
  try {
    const t1 = performance.now();
    await pool.body(posted.segments[0]!.messageId, { priority: 'import' });
    const first = performance.now() - t1;
    const t2 = performance.now();
    await Promise.all(posted.segments.map((s) => pool.stat(s.messageId, { priority: 'import' })));
    const stats = performance.now() - t2;
    log(`raw: first article ${ms(first)}, STAT of all ${ms(stats)}`);
    rows.push(`| Raw pool: BODY of the first article (new connection) | ${ms(first)} |`);
    rows.push(`| Raw pool: STAT of all ${posted.segments.length} articles | ${ms(stats)} |`);
  } finally {
    await pool.close();
  }
  return ['| What | Time |', '|---|---|', ...rows];
}

export async function run(log: (m: string) => void): Promise<string> {
  const parts = [await layoutWrite(log), await queueList(log), await importEndToEnd(log)];
  return parts.map((p) => p.join('\n')).join('\n\n');
}
