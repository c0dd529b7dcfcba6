/**
 * The INN daemons (innd, the TLS nnrpd) run detached as `news`, outlive the test process that started them, and
 * are found again through a small state file holding their PID and port. Everything here works by that PID.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { newsId } from './config.js';
import { HUNG_RUN_MS } from '../wait.js';

export interface DaemonState {
  pid: number;
  port: number;
}

export function readState(file: string): DaemonState | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as DaemonState;
  } catch {
    return undefined;
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Starts `bin` as the news user with INNCONF=conf, detached so it survives this process; returns its PID. */
export function spawnAsNews(bin: string, args: string[], conf: string): number {
  const child = spawn(bin, args, {
    env: { ...process.env, INNCONF: conf },
    uid: newsId('-u'),
    gid: newsId('-g'),
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
  return child.pid!;
}

/** Polls `ready` until it holds; throws `failure()` once the daemon died or HUNG_RUN_MS passed (a hung start). */
export async function waitUntilReady(pid: number, ready: () => Promise<boolean>, failure: () => string): Promise<void> {
  const deadline = Date.now() + HUNG_RUN_MS;
  while (!(await ready())) {
    if (!alive(pid) || Date.now() > deadline) throw new Error(failure());
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Stops the daemon recorded in `stateFile`, if it runs: SIGTERM, then SIGKILL after 5 s. */
export async function stopDaemon(stateFile: string): Promise<void> {
  const state = readState(stateFile);
  if (!state || !alive(state.pid)) return;
  process.kill(state.pid, 'SIGTERM');
  for (let i = 0; i < 100 && alive(state.pid); i++) await new Promise((r) => setTimeout(r, 50));
  if (alive(state.pid)) process.kill(state.pid, 'SIGKILL');
}
