/**
 * PROPFIND Depth 1 of a 10,000-entry folder (npm run bench -- propfind). A job of 10,000 files (names that need
 * escaping: `&`, `<`, `'`, `#`) is written into a data folder once; then PROPFIND_PROCESSES fresh server processes
 * (default 5; the built server under plain node, as production runs it: tests/support/child-server.ts) are started
 * on it one after another, and each answers PROPFIND_RUNS allprop PROPFINDs of the job folder (default 21). Cold is
 * each process's first PROPFIND, 2 s after it is ready (nothing of the folder read or built yet, the code not yet
 * compiled for it; the start-up work of its first seconds not counted in its CPU); warm is
 * the median of the rest. Per request: wall time seen by the client (which reads the whole answer; it is warmed
 * on a server of its own first, so its first use is not counted) and the CPU the server process spent on it, read
 * from /proc/<pid>/task/*\/schedstat (every thread: GC and compiler threads too; a loaded machine inflates wall time,
 * much less CPU). Target: both under 150 ms. Profile a server with `PROPFIND_PROFILE=<dir>` (node --cpu-prof).
 */
import { createServer } from 'node:http';
import { readFileSync, readdirSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startChildServer } from '../tests/support/child-server.js';
import { startServer } from '../tests/support/server.js';
import { buildServer } from './lib/spool-server.js';

const FILES = Number(process.env.PROPFIND_FILES ?? 10_000);
const RUNS = Number(process.env.PROPFIND_RUNS ?? 21);
const PROCESSES = Number(process.env.PROPFIND_PROCESSES ?? 5);
/** How long each server runs before its first PROPFIND. */
const SETTLE_MS = 2000;

interface Round {
  coldMs: number;
  coldCpuMs: number;
  warmMs: number;
  warmCpuMs: number;
  bytes: number;
}

export async function run(log: (m: string) => void): Promise<string> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'spool-bench-propfind-'));
  try {
    const dir = await writeJob(dataDir);
    log(`${FILES} files written; building the server`);
    const builtMain = buildServer();
    await warmClient();
    const rounds: Round[] = [];
    for (let p = 0; p < PROCESSES; p++) {
      const r = await oneProcess(builtMain, dataDir, dir);
      log(
        `process ${p + 1}: cold ${ms(r.coldMs)} (CPU ${ms(r.coldCpuMs)}), warm p50 ${ms(r.warmMs)} (CPU ${ms(r.warmCpuMs)})`,
      );
      rounds.push(r);
    }
    return report(rounds);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** One job of FILES files, written through the real VFS of a server in this process, which then stops. */
async function writeJob(dataDir: string): Promise<string> {
  const srv = await startServer({ dataDir, config: { auth: { login_required: false } } });
  try {
    const layout = { size: 700_000, segments: [{ messageId: 'a@b', start: 0, end: 700_000 }] };
    const files = Array.from({ length: FILES }, (_, i) => ({
      name: `Show.S01E${String(i).padStart(5, '0')} & <odd> 'name' #${i}.mkv`,
      size: layout.size,
      layout,
    }));
    return (await srv.app().streaming.vfs.addJob({ category: 'tv', jobName: 'Bench.Job', files })).dir;
  } finally {
    await srv.stop();
  }
}

async function oneProcess(builtMain: string, dataDir: string, dir: string): Promise<Round> {
  const profile = process.env.PROPFIND_PROFILE;
  const srv = await startChildServer({
    builtMain,
    dataDir,
    ...(profile ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profile}`] } : {}),
  });
  try {
    // what a server starts at ready (health's start-up look at the tree, timers) is not the request's cost
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const url = `${srv.baseUrl}/webdav${dir.split('/').map(encodeURIComponent).join('/')}/`;
    const times: number[] = [];
    const cpu: number[] = [];
    let bytes = 0;
    for (let i = 0; i < RUNS; i++) {
      const cpu0 = serverCpuMs(srv.pid);
      const t = performance.now();
      const res = await fetch(url, { method: 'PROPFIND', headers: { Depth: '1' } });
      const body = await res.arrayBuffer();
      times.push(performance.now() - t);
      cpu.push(serverCpuMs(srv.pid) - cpu0);
      if (res.status !== 207) throw new Error(`PROPFIND: ${res.status}`);
      bytes = body.byteLength;
    }
    return {
      coldMs: times[0]!,
      coldCpuMs: cpu[0]!,
      warmMs: median(times.slice(1)),
      warmCpuMs: median(cpu.slice(1)),
      bytes,
    };
  } finally {
    await srv.stop();
  }
}

/** CPU time of every thread of the process so far, in ms (schedstat: nanoseconds on the CPU). */
function serverCpuMs(pid: number): number {
  let ns = 0;
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // a thread that ended meanwhile
    }
  }
  return ns / 1e6;
}

/** The client's first fetch (undici's own start-up) against a throwaway server, so no round counts it. */
async function warmClient(): Promise<void> {
  const body = Buffer.alloc(9_000_000, 'x');
  const server = createServer((_, res) => res.end(body));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  for (let i = 0; i < 3; i++) await (await fetch(`http://127.0.0.1:${port}/`, { method: 'PROPFIND' })).arrayBuffer();
  await new Promise((r) => server.close(r));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(0)} ms`;

function report(rounds: Round[]): string {
  const figures = (pick: (r: Round) => number) => {
    const xs = rounds.map(pick);
    return `${ms(median(xs))} (${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)})`;
  };
  const cold = median(rounds.map((r) => r.coldMs));
  const warm = median(rounds.map((r) => r.warmMs));
  return [
    `PROPFIND Depth 1 (allprop) of a job folder of ${FILES} files (answer ${(rounds[0]!.bytes / 1e6).toFixed(1)} MB), ` +
      `${PROCESSES} fresh server processes, ${RUNS} requests each. Median over the processes (min-max):`,
    '',
    '| | wall, seen by the client | CPU of the server |',
    '|---|---|---|',
    `| cold (each process's first PROPFIND) | ${figures((r) => r.coldMs)} | ${figures((r) => r.coldCpuMs)} |`,
    `| warm (p50 of the next ${RUNS - 1}) | ${figures((r) => r.warmMs)} | ${figures((r) => r.warmCpuMs)} |`,
    '',
    `Target: both under 150 ms (wall): ${cold < 150 && warm < 150 ? 'met' : 'NOT met'}.`,
  ].join('\n');
}
