/** Runs a measurement in a child process and formats the results. */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import type { Fixture } from './fixture.js';

const execFileAsync = promisify(execFile);

export interface Measurement {
  name: string;
  bytes: number;
  seconds: number;
  cpuSeconds: number;
  peakRssMb: number;
  acquireWaitMs?: number;
}

export function runWorker(mode: 'raw' | 'pool' | 'readers', f: Fixture): Measurement {
  const { host, port, username, password } = f.inn;
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', 'bench/lib/fetch-worker.ts', mode, f.fixturePath, host, String(port), username, password],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    },
  );
  const r = JSON.parse(out.trim().split('\n').pop()!) as Omit<Measurement, 'name'> & { mode: string };
  return {
    name: mode,
    bytes: r.bytes,
    seconds: r.seconds,
    cpuSeconds: r.cpuSeconds,
    peakRssMb: r.peakRssMb,
    acquireWaitMs: r.acquireWaitMs,
  };
}

export interface WorkerTarget {
  /** Where to connect instead of the fixture's INN (a TLS front, a delay proxy). */
  host?: string;
  port?: number;
  /** PEM file of the CA to trust: the worker then speaks implicit TLS. */
  tlsCaFile?: string;
  connections?: number;
  /** Commands in flight per connection. */
  depth?: number;
}

/**
 * runWorker without blocking this process's event loop (a delay proxy in this process must keep relaying while
 * the worker runs), with the target and TLS of the worker chosen by the caller; bounded by `timeoutMs`.
 */
export async function runWorkerAsync(
  mode: 'raw' | 'pool',
  f: Fixture,
  t: WorkerTarget = {},
  timeoutMs = 300_000,
): Promise<Measurement> {
  const { username, password } = f.inn;
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (t.tlsCaFile) env.SPOOL_FETCH_TLS_CA = t.tlsCaFile;
  if (t.connections) env.SPOOL_FETCH_CONNECTIONS = String(t.connections);
  if (t.depth) env.SPOOL_FETCH_DEPTH = String(t.depth);
  const host = t.host ?? f.inn.host;
  const port = String(t.port ?? f.inn.port);
  const { stdout } = await execFileAsync(
    process.execPath,
    ['--import', 'tsx', 'bench/lib/fetch-worker.ts', mode, f.fixturePath, host, port, username, password],
    { encoding: 'utf8', maxBuffer: 1 << 20, env, timeout: timeoutMs, killSignal: 'SIGKILL' },
  );
  const r = JSON.parse(stdout.trim().split('\n').pop()!) as Omit<Measurement, 'name'>;
  return { name: mode, bytes: r.bytes, seconds: r.seconds, cpuSeconds: r.cpuSeconds, peakRssMb: r.peakRssMb };
}

const GIB = 1024 ** 3;
export const mbps = (m: Measurement) => m.bytes / m.seconds / 1e6;
export const cpuPerGib = (m: Measurement) => m.cpuSeconds / (m.bytes / GIB);

export function row(m: Measurement): string {
  return `| ${m.name} | ${mbps(m).toFixed(0)} MB/s | ${cpuPerGib(m).toFixed(2)} s/GiB | ${m.peakRssMb.toFixed(0)} MiB |`;
}
