/**
 * The real Spool process (`node --import tsx appliance/main.ts`) as a child: its own pid, so a test can kill -9 it
 * (crash) and a benchmark can read its CPU time and peak RSS from /proc without counting the client.
 *
 *   const srv = await startChildServer({ config: { auth: { login_required: false } } });
 *   await fetch(`${srv.baseUrl}/ping`);  srv.peakRssMb();  srv.cpuSeconds();
 *   await srv.stop();           // SIGTERM, waits for a clean exit (bounded); srv.kill() is SIGKILL
 *   await srv.removeDataDir();  // unless the next child reuses it (pass dataDir)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { withTestImportDefaults } from './test-config.js';

const ROOT = resolve(import.meta.dirname, '../..');

export interface ChildServerOptions {
  /** Written to <dataDir>/config.yaml before start (missing fields take defaults). */
  config?: Record<string, unknown>;
  /** Reuse a data dir (a restart after a crash); by default a fresh temp dir. */
  dataDir?: string;
  /** A built main.js to run with plain node (production-like, no tsx in memory); default appliance/main.ts via tsx. */
  builtMain?: string;
  /** How long to wait for the "ready" log line. */
  readyTimeoutMs?: number;
  /** More environment for the child (e.g. `SPOOL_DATABASE_URL`); wins over this process's. */
  env?: Record<string, string>;
}

export interface ChildServer {
  baseUrl: string;
  port: number;
  pid: number;
  dataDir: string;
  proc: ChildProcess;
  /** stdout + stderr so far (JSON log lines). */
  output(): string;
  /** VmHWM of the server process: its peak resident memory so far, in MiB. */
  peakRssMb(): number;
  /** user + system CPU seconds the server process has used so far. */
  cpuSeconds(): number;
  /** SIGTERM and wait for the exit (bounded); returns the exit code. */
  stop(timeoutMs?: number): Promise<number | null>;
  /** SIGKILL (a crash) and wait for the exit. */
  kill(): Promise<void>;
  removeDataDir(): void;
}

export async function startChildServer(opts: ChildServerOptions = {}): Promise<ChildServer> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'spool-child-'));
  if (opts.config) writeFileSync(join(dataDir, 'config.yaml'), stringify(withTestImportDefaults(opts.config)));
  const args = opts.builtMain ? [opts.builtMain] : ['--import', 'tsx', 'appliance/main.ts'];
  const proc = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      SPOOL_HOST: '127.0.0.1',
      SPOOL_PORT: '0',
      SPOOL_DATA: dataDir,
      SPOOL_CONFIG: '',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out = keepTail(out + d.toString())));
  proc.stderr!.on('data', (d: Buffer) => (out = keepTail(out + d.toString())));
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  const pid = proc.pid as number;
  const port = await readyPort(proc, () => out, opts.readyTimeoutMs ?? 60_000).catch(async (err: unknown) => {
    proc.kill('SIGKILL');
    await exited;
    throw err;
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    pid,
    dataDir,
    proc,
    output: () => out,
    peakRssMb: () => Number(/VmHWM:\s+(\d+)/.exec(procFile(pid, 'status'))?.[1] ?? 0) / 1024,
    cpuSeconds: () => {
      const f = procFile(pid, 'stat').split(') ')[1]?.split(' ') ?? [];
      return (Number(f[11]) + Number(f[12])) / 100; // utime + stime in clock ticks (100 Hz on Linux)
    },
    async stop(timeoutMs = 30_000) {
      if (proc.exitCode !== null || proc.signalCode !== null) return proc.exitCode;
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    async kill() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      await exited;
    },
    removeDataDir: () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

async function readyPort(proc: ChildProcess, output: () => string, timeoutMs: number): Promise<number> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const m = /"msg":"ready","port":(\d+)/.exec(output());
    if (m) return Number(m[1]);
    if (proc.exitCode !== null) throw new Error(`spool exited early (${proc.exitCode}): ${output().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`spool printed no ready line within ${timeoutMs} ms: ${output().slice(-2000)}`);
}

function procFile(pid: number, name: string): string {
  try {
    return readFileSync(`/proc/${pid}/${name}`, 'utf8');
  } catch {
    return '';
  }
}

/** Keeps the last 256 KiB of output: enough to diagnose, bounded for long benchmark runs. */
function keepTail(s: string): string {
  return s.length > 262_144 ? s.slice(-262_144) : s;
}
