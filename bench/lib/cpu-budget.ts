/**
 * Who spends the CPU of a streaming run, for the budget line of the stream bench. On this 2-core machine the local
 * INN, the server and the client share the cores, so the ratio to the raw fetch is bounded by CPU seconds per GiB
 * of all three, not by the server alone.
 *
 * - INN: reader connections are served by nnrpd processes that innd forks and reaps, so their CPU lands in innd's
 *   cutime + cstime (/proc/<innd>/stat fields 16 and 17) once they exit.
 * - curl: run under bash, whose `times` prints its children's user and system time.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);
const TICKS = 100; // USER_HZ

interface InnSnapshot {
  /** CPU of nnrpd children innd has reaped so far. */
  reaped: number;
  /** CPU so far of each nnrpd still running (a server's pool keeps its connections open). */
  live: Map<number, number>;
}

function statFields(pid: number | string): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  } catch {
    return null; // exited between listing and reading
  }
}

function innSnapshot(): InnSnapshot {
  const innd = execFileSync('pgrep', ['-o', '-x', 'innd']).toString().trim();
  const f = statFields(innd);
  if (!f) throw new Error('innd is not running');
  const live = new Map<number, number>();
  const nnrpd = spawnSync('pgrep', ['-x', 'nnrpd'], { encoding: 'utf8' }).stdout; // exit 1 (none) is fine
  for (const pid of nnrpd.split('\n').filter(Boolean).map(Number)) {
    const s = statFields(pid);
    if (s) live.set(pid, (Number(s[11]) + Number(s[12])) / TICKS);
  }
  return { reaped: (Number(f[13]) + Number(f[14])) / TICKS, live };
}

/**
 * INN's CPU during `work`: what reaped nnrpd children used (cutime of innd, counted after a short wait so innd
 * has reaped those that quit with the client) plus what live ones used, minus the part of reaped ones that had
 * already been spent before `work` began.
 */
export async function withInnCpu<T>(work: () => Promise<T> | T): Promise<{ value: T; innCpu: number }> {
  const before = innSnapshot();
  const value = await work();
  await new Promise((r) => setTimeout(r, 300));
  const after = innSnapshot();
  let cpu = after.reaped - before.reaped;
  for (const [pid, used] of after.live) cpu += used - (before.live.get(pid) ?? 0);
  for (const [pid, used] of before.live) if (!after.live.has(pid)) cpu -= used;
  return { value, innCpu: cpu };
}

export interface CurlRun {
  bytes: number;
  seconds: number;
  /** user + system CPU of curl itself. */
  cpuSeconds: number;
}

/** GET (optionally a byte range) with curl, body discarded; its wall time and its own CPU time. */
export async function curlWithCpu(url: string, range?: string): Promise<CurlRun> {
  const r = range ? `-r ${range}` : '';
  const script = `curl -sf -o /dev/null ${r} -w '%{size_download}\\n' '${url}' || exit 1; times`;
  const t0 = performance.now();
  const { stdout } = await run('bash', ['-c', script], { timeout: 900_000 });
  const seconds = (performance.now() - t0) / 1000;
  const [size, , children] = stdout.trim().split('\n');
  const cpuSeconds = (children ?? '').split(' ').reduce((s, t) => s + minutesSeconds(t), 0);
  return { bytes: Number(size), seconds, cpuSeconds };
}

/** bash `times` prints e.g. "0m0.029s". */
function minutesSeconds(t: string): number {
  const m = /^(\d+)m([\d.]+)s$/.exec(t.trim());
  return m ? Number(m[1]) * 60 + Number(m[2]) : 0;
}
