/**
 * The real Spool process for benchmarks: main.ts as a child (tests/support/child-server) with a temp SPOOL_DATA,
 * the local INN as its one provider (8 connections, like the NNTP bench and nzbget), default streaming settings,
 * and the fixture brought in through the real import API (POST /api/queue/upload of the fixture's NZB).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { startChildServer, type ChildServer } from '../../tests/support/child-server.js';
import { cleanupOnSignal } from './cleanup.js';
import type { Fixture } from './fixture.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
/**
 * The server as production runs it: compiled JS under plain node (tsx alone adds ~55 MiB of RSS at idle). One
 * folder per checkout, inside it and not under node_modules: worktrees share node_modules (a symlink to the main
 * checkout's), and a build there found the native addons upwards from the main checkout (addons/addon-path.ts), so
 * a worktree's bench ran main's FUSE addon, not its own.
 */
const BUILT = path.join(ROOT, '.tmp', 'bench-dist');

/** Compiles the server (tsconfig.build.json) into a private folder, so a bench never touches the shared dist/. */
export function buildServer(): string {
  execFileSync(path.join(ROOT, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json', '--outDir', BUILT], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  return path.join(BUILT, 'appliance/main.js');
}

export async function bootSpool(
  f: Fixture,
  dataDir: string,
  mountPath: string,
  builtMain?: string,
  /** Fields of the rclone config section to set (e.g. `{ mount_options: { direct_io: false } }`). */
  rclone?: Record<string, unknown>,
): Promise<ChildServer> {
  return bootSpoolWith(f, dataDir, mountPath, builtMain, { rclone });
}

export interface ProviderTarget {
  host: string;
  port: number;
  /** Implicit TLS; the server trusts the CA through NODE_EXTRA_CA_CERTS (certificate checks stay on). */
  tlsCaFile?: string;
  connections?: number;
}

/** bootSpool with the provider's address, TLS and connections chosen (a TLS front, a delay proxy). */
export async function bootSpoolWith(
  f: Fixture,
  dataDir: string,
  mountPath: string,
  builtMain: string | undefined,
  opts: {
    rclone?: Record<string, unknown>;
    provider?: ProviderTarget;
    env?: Record<string, string>;
    wrap?: string[];
    /** Fields of the streaming config section to set (e.g. `{ max_cache_size_mb: 1024 }`). */
    streaming?: Record<string, unknown>;
  },
): Promise<ChildServer> {
  const t = opts.provider ?? { host: f.inn.host, port: f.inn.port };
  // The child inherits this process's environment; the variable is read by node at the child's start only.
  if (t.tlsCaFile) process.env.NODE_EXTRA_CA_CERTS = t.tlsCaFile;
  else delete process.env.NODE_EXTRA_CA_CERTS;
  const srv = await startChildServer({
    builtMain,
    dataDir,
    env: opts.env,
    ...(opts.wrap ? { wrap: opts.wrap } : {}),
    config: {
      auth: { login_required: false },
      mount_path: mountPath,
      ...(opts.rclone ? { rclone: opts.rclone } : {}),
      ...(opts.streaming ? { streaming: opts.streaming } : {}),
      // Fixtures are .bin files: every extension allowed (the default list is media only, docs/configuration.md).
      import: { queue_processing_interval_seconds: 1, allowed_file_extensions: [] },
      providers: [
        {
          id: 'inn',
          host: t.host,
          port: t.port,
          username: f.inn.username,
          password: f.inn.password,
          max_connections: t.connections ?? 8,
          tls: t.tlsCaFile !== undefined,
          insecure_tls: false,
          enabled: true,
          is_backup_provider: false,
        },
      ],
    },
  });
  // An interrupted bench stops the server (SIGTERM: it unmounts FUSE) instead of leaving it running.
  const release = cleanupOnSignal(() => srv.stop());
  const stop = srv.stop.bind(srv);
  srv.stop = (timeoutMs?: number) => {
    release();
    return stop(timeoutMs);
  };
  return srv;
}

interface Envelope<T> {
  success: boolean;
  data?: T;
  error?: { message: string };
}

async function call<T>(srv: ChildServer, path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(`${srv.baseUrl}${path}`, init);
  const body = (await res.json()) as Envelope<T>;
  if (!body.success) throw new Error(`${path}: ${res.status} ${body.error?.message ?? ''}`);
  return body.data as T;
}

/** Uploads the fixture's NZB, waits (bounded) for the import, returns the virtual path of the file. */
export async function importFixture(srv: ChildServer, f: Fixture, timeoutMs = 300_000): Promise<string> {
  return `${await importNzb(srv, f.file.nzbXml, timeoutMs)}/${f.file.name}`;
}

/** Uploads an NZB, waits (bounded) for the import, returns the virtual path of its job's folder. */
export async function importNzb(srv: ChildServer, nzbXml: string, timeoutMs = 300_000): Promise<string> {
  const form = new FormData();
  form.append('category', 'bench');
  form.append('file', new Blob([nzbXml]), `Bench.${Date.now()}.nzb`);
  const item = await call<{ id: number }>(srv, '/api/queue/upload', { method: 'POST', body: form });
  const until = Date.now() + timeoutMs;
  for (;;) {
    const q = await call<{ status: string; target_path: string | null; error_message: string | null }>(
      srv,
      `/api/queue/${item.id}`,
    );
    if (q.status === 'completed' && q.target_path) return q.target_path;
    if (q.status === 'failed') throw new Error(`import failed: ${q.error_message}`);
    if (Date.now() > until) throw new Error(`import still ${q.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Bytes the server's NNTP pool has downloaded so far: a read that moves it was not served from the cache. */
export async function poolBytes(srv: ChildServer): Promise<number> {
  return (await call<{ total_bytes_downloaded: number }>(srv, '/api/system/pool/metrics')).total_bytes_downloaded;
}

export interface PoolSample {
  active_connections: number;
  total_bytes_downloaded: number;
  waiting_requests: number;
  /** Articles on the wire (commands sent, not yet answered). */
  in_flight_commands: number;
}

/** The server's pool metrics (GET /api/system/pool/metrics). */
export function poolMetrics(srv: ChildServer): Promise<PoolSample> {
  return call<PoolSample>(srv, '/api/system/pool/metrics');
}

export async function startMount(srv: ChildServer): Promise<void> {
  await call(srv, '/api/rclone/mount/start', { method: 'POST' });
}

export function davUrl(srv: ChildServer, virtualPath: string): string {
  return `${srv.baseUrl}/webdav${virtualPath.split('/').map(encodeURIComponent).join('/')}`;
}
