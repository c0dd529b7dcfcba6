/**
 * One import of an NZB posted to the local INN, by the real server in this process of its own, so RSS is that
 * server's alone (bench/import-memory.bench.ts: the 500-volume film and the 24-set season pack). Argument: the NZB's
 * path. Prints one JSON line: RSS before the upload, peak RSS (sampled every 20 ms, and the kernel's high-water
 * mark VmHWM over the whole process life), the files of the job, the queue item's status and the time.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { innProvider } from '../../tests/support/inn/provider.js';
import { ensureInn } from '../../tests/support/inn/server.js';
import { upload, waitForItem, davList } from '../../tests/integration/import/support.js';
import { startServer } from '../../tests/support/server.js';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const mb = (n: number) => Math.round(n / 1024 / 1024);
const vmHwm = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;

async function main(): Promise<void> {
  const nzbPath = process.argv[2]!;
  const inn = await ensureInn();
  const srv = await startServer({
    config: {
      auth: { login_required: false },
      providers: [innProvider(inn)],
      // The check of media headers off: the members are sparse, their bytes random (bench/lib/archive-releases.ts),
      // and this bench measures the memory of reading archive headers, not media.
      import: { queue_processing_interval_seconds: 1, verify_media_headers: false },
    },
  });
  try {
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((r) => setTimeout(r, 200));
    }
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const started = performance.now();
    const up = await upload(srv.baseUrl, basename(nzbPath), readFileSync(nzbPath));
    const item = await waitForItem(srv.baseUrl, up.body.data!.id, undefined, { hungAfterMs: 900_000 });
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    const files = item.status === 'completed' ? (await davList(srv.baseUrl, item.target_path!)).length : 0;
    console.log(
      JSON.stringify({
        status: item.status,
        error: item.error_message ?? null,
        files,
        baseline_mb: mb(baseline),
        peak_mb: mb(peak),
        vm_hwm_mb: mb(vmHwm()),
        seconds: +seconds.toFixed(1),
      }),
    );
  } finally {
    await srv.stop();
  }
}

await main();
