/**
 * Starts the built Spool (`node dist/appliance/main.js`) as its own process with a fresh temp data dir, the way an
 * operator runs it, and stops it by PID. SPOOL_PORT=0 lets the kernel pick a free port; the 'ready' log line says
 * which. An optional partial config is written before start (missing keys take defaults).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const START_TIMEOUT_MS = 240_000; // a cap for a hung start, not a speed (tests/support/wait.ts)

export interface Spool {
  baseURL: string;
  dataDir: string;
  configPath: string;
  /** Everything the process wrote, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

export async function startSpool(opts: { config?: Record<string, unknown> } = {}): Promise<Spool> {
  const dataDir = mkdtempSync(join(tmpdir(), 'spool-e2e-'));
  const configPath = join(dataDir, 'config.yaml');
  if (opts.config) writeFileSync(configPath, stringify(opts.config));
  const child = spawn(process.execPath, [join(ROOT, 'dist/appliance/main.js')], {
    cwd: ROOT,
    env: { ...process.env, SPOOL_DATA: dataDir, SPOOL_PORT: '0', SPOOL_HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr?.on('data', (b: Buffer) => (output += b.toString()));
  try {
    const port = await waitForReady(child, () => output);
    const baseURL = `http://127.0.0.1:${port}`;
    return {
      baseURL,
      dataDir,
      configPath,
      output: () => output,
      stop: async () => {
        await stopChild(child);
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}

function waitForReady(child: ChildProcess, output: () => string): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new Error(`Spool did not start in ${START_TIMEOUT_MS} ms:\n${output()}`)),
      START_TIMEOUT_MS,
    );
    const onData = () => {
      const match = /"msg":"ready","port":(\d+)/.exec(output());
      if (match) done(Number(match[1]));
    };
    const onExit = (code: number | null) =>
      fail(new Error(`Spool exited with ${code} before it was ready:\n${output()}`));
    function cleanup() {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
    }
    function done(port: number) {
      cleanup();
      resolve(port);
    }
    function fail(err: Error) {
      cleanup();
      reject(err);
    }
    child.stdout?.on('data', onData);
    child.on('exit', onExit);
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 10_000).unref());
  if ((await Promise.race([exited, timeout])) === 'timeout') {
    child.kill('SIGKILL');
    await exited;
  }
}

/** Changes keys of the YAML config file on disk (for 'Reload' and pre-start edits). */
export type ConfigDoc = Record<string, Record<string, unknown>>;

export function editConfigFile(configPath: string, edit: (config: ConfigDoc) => void): void {
  const config = parse(readFileSync(configPath, 'utf8')) as ConfigDoc;
  edit(config);
  writeFileSync(configPath, stringify(config));
}

/** Calls the API outside the browser (setup steps), with an optional session cookie. */
export async function apiCall<T = unknown>(
  baseURL: string,
  method: string,
  path: string,
  body?: unknown,
  cookie?: string,
): Promise<{ status: number; body: { success: boolean; data: T; error?: { message: string } }; cookie?: string }> {
  const res = await fetch(baseURL + path, {
    method,
    headers: { 'Content-Type': 'application/json', ...(cookie ? { Cookie: cookie } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const setCookie = res.headers.get('set-cookie')?.split(';')[0];
  return { status: res.status, body: (await res.json()) as never, cookie: setCookie ?? cookie };
}
