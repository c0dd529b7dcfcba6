/**
 * Memory after many small imports (issue 30): SPOOL_BENCH_MANY_NZBS NZBs (default 20) of SPOOL_BENCH_MANY_FILES
 * one-article files each (default 5,000: 100,000 files in all) uploaded to the real server, one process of its own
 * (bench/lib/import-many-child.ts), its provider the pattern server in this process (bench/lib/pattern-nntp.ts).
 * RSS before, at its peak, right after the last import and after SPOOL_BENCH_MANY_IDLE seconds of idle (default 30),
 * with no restart; and Node's view of it (V8 heap, ArrayBuffers), so a figure that stays up says where it sits.
 * Target: RSS after the idle wait under 300 MB. For diagnosis: SPOOL_BENCH_MANY_SMAPS=1 prints the biggest mappings;
 * SPOOL_BENCH_MANY_PRELOAD=<module> preloads a module into the child (`node --import`), e.g. one that tallies
 * allocations by caller.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startPatternServer } from './lib/pattern-nntp.js';
import { patternNzb } from './lib/scale-nzb.js';

const CHILD = fileURLToPath(new URL('./lib/import-many-child.ts', import.meta.url));
const NZBS = Number(process.env.SPOOL_BENCH_MANY_NZBS ?? 20);
const FILES = Number(process.env.SPOOL_BENCH_MANY_FILES ?? 5000);
const IDLE = Number(process.env.SPOOL_BENCH_MANY_IDLE ?? 30);

type Mem = Record<string, number>;

export async function run(log: (m: string) => void): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'spool-bench-many-'));
  const pattern = await startPatternServer();
  try {
    const nzbs = Array.from({ length: NZBS }, (_, j) => {
      const file = path.join(dir, `Many.Files.${j}.nzb`);
      const files = Array.from({ length: FILES }, (_, i) => ({ name: `Many.${j}.File.${i}.mkv`, articles: 1 }));
      writeFileSync(file, patternNzb(files));
      return file;
    });
    log(`importing ${NZBS} NZBs of ${FILES} one-article files in a child process`);
    // async: the pattern server in this process must keep answering while the child imports
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [
        ...(process.env.SPOOL_BENCH_MANY_PRELOAD ? ['--import', process.env.SPOOL_BENCH_MANY_PRELOAD] : []),
        '--import',
        'tsx',
        CHILD,
        JSON.stringify({ port: pattern.port, nzbs, idleSeconds: IDLE }),
      ],
      {
        encoding: 'utf8',
        env: { ...process.env, SPOOL_BENCH_SMAPS: process.env.SPOOL_BENCH_MANY_SMAPS ?? '' },
        maxBuffer: 1 << 24,
      },
    );
    if (process.env.SPOOL_BENCH_MANY_SMAPS || process.env.SPOOL_BENCH_MANY_PRELOAD) log(stderr);
    const r = JSON.parse(stdout.trim().split('\n').pop()!) as {
      seconds: number;
      failed: string[];
      before: Mem;
      peak_mb: number;
      after: Mem;
      idle: Mem;
    };
    log(JSON.stringify(r));
    if (r.failed.length) throw new Error(`imports failed: ${r.failed.join('; ')}`);
    const row = (label: string, m: Mem) =>
      `| ${label} | ${m.rss} | ${m.rss_anon} | ${m.rss_file} | ${m.heap_total} (${m.heap_used} used) | ${m.array_buffers} |`;
    return [
      `${NZBS * FILES} one-article files in ${NZBS} NZBs, imported in ${r.seconds} s; peak RSS ${r.peak_mb} MiB. MiB:`,
      '',
      '| when | RSS | anonymous | file-backed | V8 heap | ArrayBuffers |',
      '|---|---|---|---|---|---|',
      row('before the uploads', r.before),
      row('after the last import', r.after),
      row(`after ${IDLE} s idle, no restart`, r.idle),
      '',
      `Target: RSS after the idle wait under 300 MB: ${r.idle.rss! * 1.048576 < 300 ? 'met' : 'NOT met'}.`,
    ].join('\n');
  } finally {
    await pattern.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
