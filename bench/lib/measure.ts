/** Runs a measurement in a child process and formats the results. */
import { execFileSync } from 'node:child_process';
import type { Fixture } from './fixture.js';

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

const GIB = 1024 ** 3;
export const mbps = (m: Measurement) => m.bytes / m.seconds / 1e6;
export const cpuPerGib = (m: Measurement) => m.cpuSeconds / (m.bytes / GIB);

export function row(m: Measurement): string {
  return `| ${m.name} | ${mbps(m).toFixed(0)} MB/s | ${cpuPerGib(m).toFixed(2)} s/GiB | ${m.peakRssMb.toFixed(0)} MiB |`;
}
