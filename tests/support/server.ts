/**
 * Starts the real Spool (config file, LMDB, auth, every route, the console) in this process on 127.0.0.1:0 with
 * a temp data dir, exactly as main.ts does it, including in-process restarts. For tests and benchmarks.
 *
 *   const srv = await startServer({ config: { auth: { login_required: false } } });
 *   const res = await fetch(`${srv.baseUrl}/api/auth/config`);
 *   await srv.stop();   // also deletes the temp dir unless keepDataDir
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { SpoolApp } from '../../appliance/app/create-app.js';
import type { DiagnosticsOverrides } from '../../appliance/app/diagnostics.js';
import type { Clock } from '../../appliance/clock/clock.js';
import { memoryLogger, type Logger } from '../../appliance/logging/logger.js';
import { serveSpool } from '../../appliance/supervisor.js';

export interface StartServerOptions {
  /** Sections written to config.yaml before start (missing fields take defaults), e.g. {auth: {login_required: false}}. */
  config?: Record<string, unknown>;
  /** Reuse a data dir (e.g. to restart on the same store); by default a fresh temp dir. */
  dataDir?: string;
  /** Keep the data dir after stop (default: delete it when we created it). */
  keepDataDir?: boolean;
  /** The console to serve (default dist/pwa of the project; point at a temp dir to test static serving). */
  staticDir?: string;
  /** Time for the app's schedulers (health checks, repair back-off): a ManualClock lets a test move it. */
  clock?: Clock;
  /** Print the server's log lines to stderr (default: keep them in `logs`). */
  verbose?: boolean;
  /** What the diagnostics read instead of the real host (appliance/app/diagnostics.ts). */
  diagnostics?: DiagnosticsOverrides;
}

export interface TestServer {
  baseUrl: string;
  port: number;
  dataDir: string;
  configPath: string;
  /** The app serving now (changes after a restart). */
  app(): SpoolApp;
  /** Completed in-process restarts so far. */
  restarts(): number;
  /** Log lines (JSON) written by the server. */
  logs: string[];
  stop(): Promise<void>;
}

export async function startServer(opts: StartServerOptions = {}): Promise<TestServer> {
  const created = !opts.dataDir;
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'spool-test-'));
  mkdirSync(dataDir, { recursive: true });
  const configPath = join(dataDir, 'config.yaml');
  if (opts.config) writeFileSync(configPath, stringify(opts.config));
  const mem = memoryLogger();
  const logger: Logger = opts.verbose
    ? Object.assign(mem, {
        info: (m: string, f?: Record<string, unknown>) => process.stderr.write(`${m} ${JSON.stringify(f ?? {})}\n`),
      })
    : mem;
  let supervisor;
  try {
    supervisor = await serveSpool({
      host: '127.0.0.1',
      port: 0,
      dataDir,
      configPath,
      logger,
      staticDir: opts.staticDir,
      clock: opts.clock,
      diagnostics: opts.diagnostics,
    });
  } catch (err) {
    if (created && !opts.keepDataDir) rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const sup = supervisor;
  return {
    baseUrl: `http://127.0.0.1:${sup.port}`,
    port: sup.port,
    dataDir,
    configPath,
    app: () => sup.current(),
    restarts: () => sup.restarts,
    logs: mem.lines,
    async stop() {
      await sup.stop();
      if (created && !opts.keepDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** fetch + JSON parse, for the `{success, data, error}` envelope. Keeps the response for headers and status. */
export async function api<T = unknown>(
  baseUrl: string,
  path: string,
  init: RequestInit & { json?: unknown } = {},
): Promise<{
  status: number;
  body: { success: boolean; data?: T; error?: { message: string; details: unknown; code: string }; meta?: unknown };
  res: Response;
}> {
  const { json, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (json !== undefined) headers.set('content-type', 'application/json');
  const res = await fetch(`${baseUrl}${path}`, {
    ...rest,
    headers,
    body: json !== undefined ? JSON.stringify(json) : rest.body,
  });
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${init.method ?? 'GET'} ${path} answered ${res.status} with non-JSON: ${text.slice(0, 200)}`);
  }
  return { status: res.status, body, res };
}

/**
 * An administrator's API key: what a caller of the SABnzbd API needs even with `auth.login_required: false`. The
 * first administrator's when one exists, else it registers one (registration is open while nobody exists).
 */
export async function adminApiKey(srv: TestServer): Promise<string> {
  const existing = await srv.app().auth.users.firstAdmin();
  if (existing) return existing.api_key;
  const r = await api<{ user: { api_key: string } }>(srv.baseUrl, '/api/auth/register', {
    method: 'POST',
    json: { username: 'sab-admin', password: 'sab-admin-password' },
  });
  const key = r.body.data?.user.api_key;
  if (!key) throw new Error(`registering an admin answered ${r.status}: ${r.body.error?.message ?? ''}`);
  return key;
}
