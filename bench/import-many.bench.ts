/**
 * Memory after many small imports (issue 30): SPOOL_BENCH_MANY_NZBS NZBs (default 20) of SPOOL_BENCH_MANY_FILES
 * one-article files each (default 5,000: 100,000 files in all) uploaded to the real server, the built server under
 * plain node in a process of its own (as production runs it; tests/support/child-server.ts), its provider the
 * pattern server in this process (bench/lib/pattern-nntp.ts). Every figure is read by this process from the
 * server's /proc (VmRSS and its anonymous and file-backed parts; the peak sampled every 100 ms and VmHWM), never
 * reported by the server about itself: before the uploads, right after the last import and after
 * SPOOL_BENCH_MANY_IDLE seconds of idle (default 30), with no restart. The server logs at debug level, so its own
 * line "memory given back after imports" (appliance/addons/release-memory.ts) is quoted too. Target: RSS after the
 * idle wait under 300 MB. SPOOL_BENCH_MANY_SMAPS=1 adds the biggest mappings at the end (from outside too).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { upload, waitForItem } from '../tests/integration/import/support.js';
import { startChildServer } from '../tests/support/child-server.js';
import { startPatternServer } from './lib/pattern-nntp.js';
import { rssMb } from './lib/scale-measure.js';
import { patternNzb } from './lib/scale-nzb.js';
import { buildServer } from './lib/spool-server.js';

const NZBS = Number(process.env.SPOOL_BENCH_MANY_NZBS ?? 20);
const FILES = Number(process.env.SPOOL_BENCH_MANY_FILES ?? 5000);
const IDLE = Number(process.env.SPOOL_BENCH_MANY_IDLE ?? 30);

type Rss = ReturnType<typeof rssMb>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function run(log: (m: string) => void): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'spool-bench-many-'));
  const pattern = await startPatternServer();
  const builtMain = buildServer();
  const srv = await startChildServer({ builtMain, config: serverConfig(pattern.port) });
  try {
    const nzbs = writeNzbs(dir);
    await sleep(3000);
    const before = rssMb(srv.pid);
    let peak = before.total;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(srv.pid).total)), 100);
    log(`importing ${NZBS} NZBs of ${FILES} one-article files into the server (pid ${srv.pid})`);
    const t0 = performance.now();
    const ids: number[] = [];
    for (const file of nzbs) {
      const up = await upload(srv.baseUrl, path.basename(file), readFileSync(file), { category: 'movies' });
      ids.push(up.body.data!.id);
    }
    const failed: string[] = [];
    for (const id of ids) {
      const item = await waitForItem(srv.baseUrl, id, undefined, { hungAfterMs: 3_600_000 });
      if (item.status !== 'completed') failed.push(`${item.nzb_path}: ${item.error_message}`);
    }
    const seconds = (performance.now() - t0) / 1000;
    const after = rssMb(srv.pid);
    await sleep(IDLE * 1000);
    clearInterval(sampler);
    const idle = rssMb(srv.pid);
    if (process.env.SPOOL_BENCH_MANY_SMAPS) log(biggestMappings(srv.pid));
    const released = srv
      .output()
      .split('\n')
      .filter((l) => l.includes('memory given back after imports'));
    log(JSON.stringify({ seconds, failed, before, peak, hwm: srv.peakRssMb(), after, idle, released }));
    if (failed.length) throw new Error(`imports failed: ${failed.join('; ')}`);
    return report({ seconds, before, peak, hwm: srv.peakRssMb(), after, idle, released });
  } finally {
    await srv.stop();
    srv.removeDataDir();
    await pattern.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function serverConfig(port: number): Record<string, unknown> {
  return {
    auth: { login_required: false },
    log: { level: 'debug' },
    // The check of media headers off: the pattern server's articles are no media (bench/lib/pattern-nntp.ts).
    import: { queue_processing_interval_seconds: 1, verify_media_headers: false },
    providers: [
      {
        id: 'pattern',
        host: '127.0.0.1',
        port,
        username: 'bench',
        password: 'bench',
        max_connections: 8,
        tls: false,
        insecure_tls: false,
        enabled: true,
        is_backup_provider: false,
      },
    ],
  };
}

function writeNzbs(dir: string): string[] {
  return Array.from({ length: NZBS }, (_, j) => {
    const file = path.join(dir, `Many.Files.${j}.nzb`);
    const files = Array.from({ length: FILES }, (_, i) => ({ name: `Many.${j}.File.${i}.mkv`, articles: 1 }));
    writeFileSync(file, patternNzb(files));
    return file;
  });
}

interface Result {
  seconds: number;
  before: Rss;
  peak: number;
  hwm: number;
  after: Rss;
  idle: Rss;
  released: string[];
}

function report(r: Result): string {
  const row = (label: string, m: Rss) =>
    `| ${label} | ${m.total.toFixed(0)} | ${m.anon.toFixed(0)} | ${m.file.toFixed(0)} |`;
  return [
    `${NZBS * FILES} one-article files in ${NZBS} NZBs, imported in ${r.seconds.toFixed(0)} s by the built server; ` +
      `peak RSS ${r.peak.toFixed(0)} MiB sampled (VmHWM ${r.hwm.toFixed(0)} MiB). MiB, read from /proc/<pid>:`,
    '',
    '| when | RSS | anonymous | file-backed (LMDB map, code) |',
    '|---|---|---|---|',
    row('before the uploads', r.before),
    row('right after the last import', r.after),
    row(`after ${IDLE} s idle, no restart`, r.idle),
    '',
    `The server's own log of giving memory back: ${r.released.length ? r.released.join(' ') : 'none'}`,
    '',
    `Target: RSS after the idle wait under 300 MB: ${r.idle.total * 1.048576 < 300 ? 'met' : 'NOT met'}.`,
  ].join('\n');
}

/** The mappings of the process over 4 MiB resident, biggest first (/proc/<pid>/smaps, read from outside). */
function biggestMappings(pid: number): string {
  const maps = readFileSync(`/proc/${pid}/smaps`, 'utf8').split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/);
  return maps
    .map((m) => ({ head: m.split('\n')[0]!, rss: Number(/\nRss:\s+(\d+)/.exec(m)?.[1] ?? 0) / 1024 }))
    .filter((m) => m.rss > 4)
    .sort((a, b) => b.rss - a.rss)
    .slice(0, 30)
    .map((m) => `${m.rss.toFixed(0)} ${m.head}`)
    .join('\n');
}
