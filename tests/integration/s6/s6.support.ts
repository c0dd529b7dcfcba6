/**
 * Runs the container's s6 service directories under a real s6-svscan (Debian's s6) in a temp scan dir, with the
 * paths the image would use pointed at temp dirs and at the source tree, so tests see exactly what s6 does with
 * the committed run scripts.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HUNG_RUN_MS, waitUntil } from '../../support/wait.js';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const S6_OVERLAY_DIR = join(PROJECT_ROOT, 's6-overlay');
export const S6_RC_DIR = join(S6_OVERLAY_DIR, 's6-rc.d');

export interface ServiceState {
  up: boolean;
  ready: boolean;
  pid: number;
  exitcode: number;
  signal: string;
}

export function svstat(serviceDir: string): ServiceState {
  const out = execFileSync('s6-svstat', ['-o', 'up,ready,pid,exitcode,signal', serviceDir], { encoding: 'utf8' });
  const [up, ready, pid, exitcode, signal] = out.trim().split(/\s+/);
  return {
    up: up === 'true',
    ready: ready === 'true',
    pid: Number(pid),
    exitcode: Number(exitcode),
    signal: signal ?? '',
  };
}

/**
 * Polls `probe` until it returns a value (not undefined); fails with `what` after the cap (tests/support/wait.ts:
 * HUNG_RUN_MS, or `hungAfterMs` for a cleanup that kills what is still alive after a while).
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  hungAfterMs?: number,
): Promise<T> {
  return waitUntil(what, probe, { hungAfterMs });
}

export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

export async function pingStatus(port: number): Promise<number> {
  try {
    // the cap only ends a hung request: a slow answer on a busy machine is still an answer
    const res = await fetch(`http://127.0.0.1:${port}/ping`, { signal: AbortSignal.timeout(HUNG_RUN_MS) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

export interface Scan {
  root: string;
  /** The copy of svc-spool that s6-supervise runs (it writes supervise/ and event/ into it). */
  serviceDir: string;
  /** Everything the supervised processes wrote to stdout/stderr. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Copies s6-overlay/s6-rc.d/svc-spool (modes included) into a fresh scan dir and starts s6-svscan on it with
 * `env` added to the environment, as s6-overlay does with S6_KEEP_ENV=1.
 */
export async function startSvcSpool(env: Record<string, string>): Promise<Scan> {
  const root = mkdtempSync(join(tmpdir(), 'spool-s6-'));
  const scanDir = join(root, 'scan');
  mkdirSync(scanDir);
  const serviceDir = join(scanDir, 'svc-spool');
  cpSync(join(S6_RC_DIR, 'svc-spool'), serviceDir, { recursive: true });
  let log = '';
  const svscan: ChildProcess = spawn('s6-svscan', [scanDir], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  svscan.stdout?.on('data', (b: Buffer) => (log += b.toString()));
  svscan.stderr?.on('data', (b: Buffer) => (log += b.toString()));
  const exited = new Promise<void>((r) => svscan.once('exit', () => r()));
  await waitFor('s6-supervise to start', () => {
    try {
      execFileSync('s6-svok', [serviceDir]);
      return true;
    } catch {
      return undefined;
    }
  });
  return {
    root,
    serviceDir,
    output: () => log,
    async stop() {
      const { pid } = svstat(serviceDir);
      // -t brings every service down (SIGTERM) and ends s6-svscan; SIGKILL only if that takes too long.
      execFileSync('s6-svscanctl', ['-t', scanDir]);
      const late = setTimeout(() => {
        if (pid > 0) killQuietly(pid);
        if (svscan.pid) killQuietly(svscan.pid);
      }, 25_000);
      await exited;
      // s6-supervise has sent SIGTERM; make sure the daemon is really gone before the temp dirs go.
      if (pid > 0)
        await waitFor('the daemon to exit', () => (isAlive(pid) ? undefined : true), 25_000).catch(() =>
          killQuietly(pid),
        );
      clearTimeout(late);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export function killQuietly(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
