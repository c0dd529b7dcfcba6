/**
 * Running the image (scripts/image.mjs builds it) with podman for the container tests: containers on the host's
 * network (each Spool on a free port), host folders as /config and as the mount path, and the probes the tests
 * wait on. Every container a test starts is removed by `removeAll()`.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
// @ts-expect-error plain ESM script without types
import { IMAGE, PROBE_IMAGE, podmanGlobal, ulimitArgs } from '../../scripts/image.mjs';
export { ulimitArgs };
import { freePort } from '../support/free-port.js';

export { IMAGE, PROBE_IMAGE };
const run = promisify(execFile);
const started: string[] = [];
const madeDirs: string[] = [];

/** `podman <args>` with the machine's runtime options; resolves with stdout, rejects with stderr in the message. */
export async function podman(args: string[], timeoutMs = 120_000): Promise<string> {
  const { stdout } = await run('podman', [...(podmanGlobal() as string[]), ...args], {
    timeout: timeoutMs,
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

/** Like podman(), but never rejects: the exit code and both streams (container logs come on both). */
export async function podmanResult(args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run('podman', [...(podmanGlobal() as string[]), ...args], {
      timeout: 120_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, out: `${stdout}${stderr}` };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

export interface Container {
  name: string;
  port: number;
  baseUrl: string;
  logs(): Promise<string>;
  exec(cmd: string[]): Promise<string>;
}

export interface RunOptions {
  /** Extra `podman run` options before the image (volumes, devices, --user, --read-only ...). */
  options?: string[];
  env?: Record<string, string>;
  /** The command after the image, if any. */
  command?: string[];
}

/** Starts the image detached on the host network with SPOOL_PORT a free port. */
export async function runImage(label: string, o: RunOptions = {}): Promise<Container> {
  const name = `spool-ct-${label}-${process.pid}`;
  const port = await freePort();
  const env = { SPOOL_PORT: String(port), ...o.env };
  const envArgs = Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  await podmanResult(['rm', '-f', name]);
  started.push(name);
  await podman([
    'run',
    '-d',
    '--name',
    name,
    '--network',
    'host',
    // No systemd here to run the HEALTHCHECK timer; tests run it with `podman healthcheck run`.
    '--health-interval',
    'disable',
    ...(ulimitArgs() as string[]),
    ...envArgs,
    ...(o.options ?? []),
    IMAGE,
    ...(o.command ?? []),
  ]);
  return {
    name,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    logs: async () => (await podmanResult(['logs', name])).out,
    exec: (cmd) => podman(['exec', name, ...cmd]),
  };
}

/** Removes every container the tests started, then the /config folders made for them. */
export async function removeAll(): Promise<void> {
  for (const name of started.splice(0)) await podmanResult(['rm', '-f', '-t', '0', name]);
  for (const dir of madeDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Polls `probe` until it returns a value (not undefined); fails with `what` and the last state after `limitMs`. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  limitMs = 120_000,
): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function pingStatus(baseUrl: string): Promise<number> {
  try {
    const res = await fetch(`${baseUrl}/ping`, { signal: AbortSignal.timeout(3000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

export interface ServiceState {
  up: boolean;
  ready: boolean;
  pid: number;
}

/** s6-svstat of svc-spool inside the container (the scan dir deploy/image/init makes). */
export async function svstat(c: Container): Promise<ServiceState | undefined> {
  const res = await podmanResult(['exec', c.name, 's6-svstat', '-o', 'up,ready,pid', '/run/service/svc-spool']);
  if (res.code !== 0) return undefined;
  const [up, ready, pid] = res.out.trim().split(/\s+/);
  return { up: up === 'true', ready: ready === 'true', pid: Number(pid) };
}

export async function exitCode(c: Container): Promise<number> {
  return Number((await podman(['inspect', '--format', '{{.State.ExitCode}}', c.name])).trim());
}

export async function isRunning(c: Container): Promise<boolean> {
  return (await podman(['inspect', '--format', '{{.State.Running}}', c.name])).trim() === 'true';
}

/** A host folder for /config (removed by removeAll), owned by `owner` (uid:gid) when given, with a config.yaml if one is given. */
export function configDir(config?: Record<string, unknown>, owner?: [number, number]): string {
  const dir = mkdtempSync(join(tmpdir(), 'spool-ct-config-'));
  madeDirs.push(dir);
  chmodSync(dir, 0o755);
  if (config) writeFileSync(join(dir, 'config.yaml'), stringify(config));
  if (owner) execFileSync('chown', ['-R', `${owner[0]}:${owner[1]}`, dir]);
  return dir;
}

/**
 * A host folder made a shared mount point (a bind of itself, `mount --make-shared`), as systemd hosts have `/`:
 * only then does a container's `rshared` bind of it carry a mount made inside back out to the host.
 */
export function sharedHostDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  execFileSync('mount', ['--bind', dir, dir]);
  execFileSync('mount', ['--make-shared', dir]);
  return dir;
}

/** Detaches whatever is left mounted under `dir` (the FUSE mount, the self-bind) and removes it. */
export function removeHostDir(dir: string | undefined): void {
  if (!dir) return;
  for (let i = 0; i < 4 && mountTypeAt(dir) !== ''; i++) {
    try {
      execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
    } catch {
      break;
    }
  }
  rmSync(dir, { recursive: true, force: true });
}

/** The host's view: the file system type mounted at `dir` last ('' when none). */
export function mountTypeAt(dir: string): string {
  const lines = readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .filter((l) => l.split(' ')[4] === dir);
  return lines.at(-1)?.split(' - ')[1]?.split(' ')[0] ?? '';
}

export function makeOwnedDir(path: string, uid: number, gid: number): void {
  mkdirSync(path, { recursive: true });
  chownSync(path, uid, gid);
}
