/**
 * Import memory (docs/performance.md, "Import memory"): peak and settled RSS of one process importing a generated
 * ~100 MB NZB (20 files, 950,000 segments): enqueue, parse in the worker, probe, layouts, VFS write. Runs in a
 * child process of its own (bench/lib/import-memory-child.ts) so RSS is the import's. Target: peak under 400 MB
 * and memory returned afterwards. SPOOL_BENCH_NZB_ARTICLES sets the segment count.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./lib/import-memory-child.ts', import.meta.url));

export async function run(log: (m: string) => void): Promise<string> {
  log('importing a generated ~100 MB NZB in a child process (RSS sampled every 20 ms)');
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', CHILD], {
    encoding: 'utf8',
    env: process.env,
    maxBuffer: 1 << 20,
  });
  const r = JSON.parse(out.trim().split('\n').pop()!) as Record<string, number>;
  log(JSON.stringify(r));
  return [
    '| NZB | Segments | Files | RSS before | Peak RSS | RSS after (idle worker gone) | Time | Target |',
    '|---|---|---|---|---|---|---|---|',
    `| ${r.nzb_mb} MB | ${r.articles} | ${r.files} | ${r.baseline_mb} MB | ${r.peak_mb} MB | ${r.after_worker_exit_mb} MB | ${r.seconds} s | peak < 400 MB |`,
  ].join('\n');
}
