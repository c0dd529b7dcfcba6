/**
 * PROPFIND Depth 1 of a 10,000-entry folder (npm run bench -- propfind): the real server in this process
 * (tests/support/server.ts) with one job of 10,000 files written straight into the tree, then allprop PROPFINDs of
 * the job folder over HTTP. The first answer (cold: nothing of the folder cached) and the median of the rest, in ms,
 * with the answer's size, and the CPU the process spent on the first (server and client: a figure a loaded machine
 * inflates less than wall time). Target: both under 150 ms. A focused form of the scale bench's PROPFIND figure (bench/scale.bench.ts), quick to
 * iterate on and to profile (`node --cpu-prof --import tsx bench/run.ts propfind`).
 */
import { performance } from 'node:perf_hooks';
import { startServer } from '../tests/support/server.js';

const FILES = Number(process.env.PROPFIND_FILES ?? 10_000);
const RUNS = Number(process.env.PROPFIND_RUNS ?? 21);

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

export async function run(log: (m: string) => void): Promise<string> {
  const srv = await startServer({ config: { auth: { login_required: false } } });
  try {
    const layout = { size: 700_000, segments: [{ messageId: 'a@b', start: 0, end: 700_000 }] };
    log(`writing a job of ${FILES} files`);
    const files = Array.from({ length: FILES }, (_, i) => ({
      name: `Show.S01E${String(i).padStart(5, '0')} & <odd> 'name' #${i}.mkv`,
      size: layout.size,
      layout,
    }));
    const { dir } = await srv.app().streaming.vfs.addJob({ category: 'tv', jobName: 'Bench.Job', files });
    const url = `${srv.baseUrl}/webdav${dir.split('/').map(encodeURIComponent).join('/')}/`;
    const times: number[] = [];
    let bytes = 0;
    let firstCpuMs = 0;
    for (let i = 0; i < RUNS; i++) {
      const cpu = process.cpuUsage();
      const t = performance.now();
      const res = await fetch(url, { method: 'PROPFIND', headers: { Depth: '1' } });
      const body = await res.arrayBuffer();
      times.push(performance.now() - t);
      if (i === 0) firstCpuMs = cpuMs(process.cpuUsage(cpu));
      if (res.status !== 207) throw new Error(`PROPFIND: ${res.status}`);
      bytes = body.byteLength;
    }
    const rest = times.slice(1).sort((a, b) => a - b);
    const p50 = rest[Math.floor(rest.length / 2)]!;
    log(
      `first ${times[0]!.toFixed(0)} ms (CPU ${firstCpuMs.toFixed(0)} ms), p50 ${p50.toFixed(0)} ms, ${(bytes / 1e6).toFixed(1)} MB`,
    );
    return [
      `PROPFIND Depth 1 (allprop) of a job folder of ${FILES} files, in process; ${RUNS} requests.`,
      '',
      '| first (ms) | CPU of the first (ms) | p50 of the rest (ms) | answer (MB) | target: both under 150 ms |',
      '|---|---|---|---|---|',
      `| ${times[0]!.toFixed(0)} | ${firstCpuMs.toFixed(0)} | ${p50.toFixed(0)} | ${(bytes / 1e6).toFixed(1)} | ` +
        `${times[0]! < 150 && p50 < 150 ? 'pass' : 'FAIL'} |`,
    ].join('\n');
  } finally {
    await srv.stop();
  }
}
