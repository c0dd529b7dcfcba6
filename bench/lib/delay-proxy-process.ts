/**
 * The delay proxy (bench/lib/delay-proxy.ts) in a process of its own, as the benches use it: its timers never
 * wait behind the bench's own work (spawning curl, an HTTP client reading in this process), and its CPU time is
 * its own (/proc/<pid>/stat), so the bench can show the link is not the bottleneck. It runs at nice -10 when
 * allowed (root), so that on a busy machine the emulated network keeps time.
 *
 *   const link = await startDelayProxyProcess({ target, rttMs: 20 });
 *   ... link.port ... await link.stats() ... link.cpuSeconds() ... await link.stop();
 *
 * The child exits when told to, when this process disconnects (dies), or on SIGKILL from stop() after 5 s.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startDelayProxy, type DelayProxyOptions, type DelayProxyStats } from './delay-proxy.js';

export interface DelayProxyProcess {
  port: number;
  pid: number;
  stats(): Promise<DelayProxyStats>;
  /** user + system CPU seconds of the proxy process so far. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

type Reply = { port: number } | { stats: DelayProxyStats } | { stopped: true } | { error: string };

export async function startDelayProxyProcess(opts: DelayProxyOptions, timeoutMs = 30_000): Promise<DelayProxyProcess> {
  const child = fork(import.meta.filename, ['--child'], {
    execArgv: ['--import', 'tsx'],
    cwd: path.resolve(import.meta.dirname, '../..'),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const ask = (msg: unknown, want: (r: Reply) => boolean): Promise<Reply> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => done(new Error('the delay proxy process did not answer')), timeoutMs);
      const onMsg = (r: Reply) => {
        if ('error' in r) done(new Error(`delay proxy: ${r.error}`));
        else if (want(r)) done(undefined, r);
      };
      const onExit = () => done(new Error('the delay proxy process exited'));
      const done = (err?: Error, r?: Reply) => {
        clearTimeout(timer);
        child.off('message', onMsg);
        child.off('exit', onExit);
        if (err) reject(err);
        else resolve(r!);
      };
      child.on('message', onMsg);
      child.once('exit', onExit);
      if (msg !== undefined) child.send(msg as object);
    });
  let started: Reply;
  try {
    started = await ask({ start: opts }, (r) => 'port' in r);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  const pid = child.pid!;
  // The emulated network should keep time as a real one does, which costs the host nothing: on a busy machine
  // the proxy goes first (root only; otherwise it runs at normal priority and its lag in stats() shows it).
  try {
    os.setPriority(pid, -10);
  } catch {
    // not permitted: fine
  }
  return {
    port: (started as { port: number }).port,
    pid,
    stats: async () => ((await ask('stats', (r) => 'stats' in r)) as { stats: DelayProxyStats }).stats,
    cpuSeconds: () => cpuOf(pid),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      child.send('stop', () => undefined);
      await exited;
      clearTimeout(timer);
    },
  };
}

function cpuOf(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

/** The child: one proxy, driven over IPC. */
function child(proc: ChildProcess | NodeJS.Process): void {
  let proxy: Awaited<ReturnType<typeof startDelayProxy>> | undefined;
  const send = (r: Reply) => proc.send?.(r);
  proc.on('disconnect', () => process.exit(0)); // the bench died: never outlive it
  proc.on('message', (msg: unknown) => {
    void (async () => {
      try {
        if (typeof msg === 'object' && msg && 'start' in msg) {
          proxy = await startDelayProxy((msg as { start: DelayProxyOptions }).start);
          send({ port: proxy.port });
        } else if (msg === 'stats' && proxy) send({ stats: proxy.stats() });
        else if (msg === 'stop') {
          await proxy?.stop();
          process.exit(0);
        }
      } catch (err) {
        send({ error: (err as Error).message });
      }
    })();
  });
}

if (process.argv.includes('--child') && process.send) child(process);
