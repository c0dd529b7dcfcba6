/**
 * Many small imports in one server (bench/import-memory.bench.ts, "many files"): the real server (startServer) in
 * this process of its own, its provider the pattern server the bench runs (bench/lib/pattern-nntp.ts), NZBs of
 * one-article files uploaded one after another from the files the bench wrote. RSS before, the peak (sampled every
 * 20 ms), right after the last import, and after an idle wait with no restart; with the parts Node reports
 * (process.memoryUsage) so a figure that stays up says where it sits. argv[2]: JSON {port, nzbs (paths), idleSeconds,
 * snapshot (a path: write a V8 heap snapshot there at the end)}. Prints one JSON line. For diagnosis: run under
 * `node --expose-gc` to add the figures after full collections; SPOOL_BENCH_SMAPS=1 prints the threads and the
 * biggest mappings (the glibc heap, V8's pages, LMDB's map) to stderr.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { upload, waitForItem } from '../../tests/integration/import/support.js';
import { startServer } from '../../tests/support/server.js';

interface Args {
  port: number;
  nzbs: string[];
  idleSeconds: number;
  snapshot?: string;
}

const args = JSON.parse(process.argv[2]!) as Args;
const mb = (n: number) => Math.round(n / 2 ** 20);
const status = () => readFileSync('/proc/self/status', 'utf8');
const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status())?.[1] ?? 0) * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** RSS and Node's own parts of it, in MiB. */
function memory(): Record<string, number> {
  const m = process.memoryUsage();
  return {
    rss: mb(m.rss),
    rss_anon: mb(kb('RssAnon')),
    rss_file: mb(kb('RssFile')),
    heap_total: mb(m.heapTotal),
    heap_used: mb(m.heapUsed),
    external: mb(m.external),
    array_buffers: mb(m.arrayBuffers),
  };
}

const srv = await startServer({
  config: {
    auth: { login_required: false },
    // The check of media headers off: the pattern server's articles are no media (bench/lib/pattern-nntp.ts).
    import: { queue_processing_interval_seconds: 1, verify_media_headers: false },
    providers: [
      {
        id: 'pattern',
        host: '127.0.0.1',
        port: args.port,
        username: 'bench',
        password: 'bench',
        max_connections: 8,
        tls: false,
        insecure_tls: false,
        enabled: true,
        is_backup_provider: false,
      },
    ],
  },
});
try {
  await sleep(3000);
  const before = memory();
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t0 = performance.now();
  const ids: number[] = [];
  for (const path of args.nzbs) {
    const up = await upload(srv.baseUrl, basename(path), readFileSync(path), { category: 'movies' });
    ids.push(up.body.data!.id);
  }
  const failed: string[] = [];
  for (const id of ids) {
    const item = await waitForItem(srv.baseUrl, id, undefined, { hungAfterMs: 1_800_000 });
    if (item.status !== 'completed') failed.push(`${item.nzb_path}: ${item.error_message}`);
  }
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const after = memory();
  await sleep(args.idleSeconds * 1000);
  const idle = memory();
  const threads = Number(/Threads:\s+(\d+)/.exec(status())?.[1] ?? 0);
  // diagnosis only (node --expose-gc): what a full collection gives back
  const gc = (globalThis as { gc?: () => void }).gc;
  let afterGc: Record<string, number> | null = null;
  if (gc) {
    for (let i = 0; i < 3; i++) {
      gc();
      await sleep(300);
    }
    afterGc = memory();
  }
  if (process.env.SPOOL_BENCH_SMAPS) {
    const { readdirSync } = await import('node:fs');
    const names = readdirSync('/proc/self/task').map((t) => readFileSync(`/proc/self/task/${t}/comm`, 'utf8').trim());
    console.error('threads', names.join(','));
    const maps = readFileSync('/proc/self/smaps', 'utf8').split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/);
    const big = maps
      .map((m) => ({ head: m.split('\n')[0]!, rss: Number(/\nRss:\s+(\d+)/.exec(m)?.[1] ?? 0) / 1024 }))
      .filter((m) => m.rss > 4)
      .sort((a, b) => b.rss - a.rss);
    for (const m of big.slice(0, 40)) console.error(m.rss.toFixed(0), m.head);
    console.error('sum of mappings over 4 MiB', big.reduce((a, m) => a + m.rss, 0).toFixed(0), 'count', big.length);
  }
  if (args.snapshot) writeHeapSnapshot(args.snapshot);
  console.log(
    JSON.stringify({
      seconds: +seconds.toFixed(1),
      failed,
      before,
      peak_mb: mb(peak),
      vm_hwm_mb: mb(kb('VmHWM')),
      after,
      idle,
      threads,
      after_gc: afterGc,
    }),
  );
} finally {
  await srv.stop();
}
