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
import { HUNG_RUN_MS, waitUntil } from './wait.js';

const ROOT = resolve(import.meta.dirname, '../..');

export interface ChildServerOptions {
  /** Written to <dataDir>/config.yaml before start (missing fields take defaults). */
  config?: Record<string, unknown>;
  /** Reuse a data dir (a restart after a crash); by default a fresh temp dir. */
  dataDir?: string;
  /** A built main.js to run with plain node (production-like, no tsx in memory); default appliance/main.ts via tsx. */
  builtMain?: string;
  /** The cap on the wait for the "ready" log line (default HUNG_RUN_MS, tests/support/wait.ts): benches only. */
  readyTimeoutMs?: number;
  /** More environment for the child (e.g. `SPOOL_DATABASE_URL`); wins over this process's. */
  env?: Record<string, string>;
  /** Flags for node itself, before the server's script (`--cpu-prof`, which NODE_OPTIONS does not take). */
  nodeArgs?: string[];
  /**
   * A command the server runs under, which forks it (`['unshare', '--pid', '--fork']`: its own pid namespace, as in
   * a container). `pid`, the CPU and memory figures and the signals are then the server's, the wrapper's child.
   */
  wrap?: string[];
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
  /** SIGTERM and wait for the exit; SIGKILL after `timeoutMs` (default HUNG_RUN_MS: a hung shutdown). Its exit code. */
  stop(timeoutMs?: number): Promise<number | null>;
  /** SIGKILL (a crash) and wait for the exit. */
  kill(): Promise<void>;
  removeDataDir(): void;
}

export async function startChildServer(opts: ChildServerOptions = {}): Promise<ChildServer> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'spool-child-'));
  if (opts.config) writeFileSync(join(dataDir, 'config.yaml'), stringify(opts.config));
  const args = [
    ...(opts.nodeArgs ?? []),
    ...(opts.builtMain ? [opts.builtMain] : ['--import', 'tsx', 'appliance/main.ts']),
  ];
  const [cmd, ...cmdArgs] = [...(opts.wrap ?? []), process.execPath, ...args] as [string, ...string[]];
  const proc = spawn(cmd, cmdArgs, {
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
  const port = await readyPort(proc, () => out, opts.readyTimeoutMs).catch(async (err: unknown) => {
    proc.kill('SIGKILL');
    await exited;
    throw err;
  });
  // a wrapper that forked the server (unshare --fork ignores SIGTERM and forwards no signal): signal the server
  const pid = opts.wrap ? forkedChild(proc.pid as number) : (proc.pid as number);
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(pid, sig);
    } catch {
      // already gone
    }
  };
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
    async stop(timeoutMs = HUNG_RUN_MS) {
      if (proc.exitCode !== null || proc.signalCode !== null) return proc.exitCode;
      signal('SIGTERM');
      const timer = setTimeout(() => {
        signal('SIGKILL');
        proc.kill('SIGKILL');
      }, timeoutMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    async kill() {
      if (proc.exitCode === null && proc.signalCode === null) {
        signal('SIGKILL');
        proc.kill('SIGKILL');
      }
      await exited;
    },
    removeDataDir: () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

/** The one process a wrapper forked (from /proc: `<pid>/task/<pid>/children`). */
function forkedChild(wrapper: number): number {
  const child = Number(procFile(wrapper, `task/${wrapper}/children`).trim().split(/\s+/)[0]);
  if (!Number.isInteger(child) || child <= 0) throw new Error(`the wrapper ${wrapper} has no child process`);
  return child;
}

async function readyPort(proc: ChildProcess, output: () => string, hungAfterMs?: number): Promise<number> {
  const port = await waitUntil(
    () => `spool's ready line: ${output().slice(-2000)}`,
    () => {
      const m = /"msg":"ready","port":(\d+)/.exec(output());
      if (m) return Number(m[1]);
      if (proc.exitCode !== null) throw new Error(`spool exited early (${proc.exitCode}): ${output().slice(-2000)}`);
      return undefined;
    },
    { everyMs: 50, hungAfterMs },
  );
  return port;
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
