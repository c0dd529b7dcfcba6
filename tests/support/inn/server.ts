/**
 * A real INN 2 server for integration tests and benchmarks: installed if missing, configured as a private
 * instance on a free loopback port with AUTHINFO required, started by PID and reused while it runs (also by
 * other test files and later runs: its PID and port are kept in <root>/state.json).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ensureInnInstalled, INN_BIN } from './install.js';
import { newsId, writeInnInstance } from './config.js';
import { postArticles, postFile, type PostOptions, type PostedFile, type PostTarget } from './poster.js';

export interface InnServer extends PostTarget {
  pid: number;
  root: string;
  /** yEnc-encode and post a file; returns its segments and an NZB. */
  postFile(name: string, bytes: Buffer, opts?: PostOptions): Promise<PostedFile>;
  /** Post ready-made articles (headers, blank line, dot-stuffed body; no final "."). */
  postArticles(articles: Iterable<Buffer> | AsyncIterable<Buffer>, connections?: number): Promise<void>;
  stop(): Promise<void>;
}

export const DEFAULT_INN_ROOT = process.env.SPOOL_INN_ROOT ?? '/var/tmp/spool-inn';
const USER = 'spool';
const PASSWORD = 'spool-test-password';
const GROUP = 'alt.binaries.spool.test';

interface State {
  pid: number;
  port: number;
}

/** Returns a running INN, starting (and installing) it only when needed. Safe to call from every test file. */
export async function ensureInn(root = DEFAULT_INN_ROOT): Promise<InnServer> {
  const stateFile = path.join(root, 'state.json');
  const known = readState(stateFile);
  if (known && alive(known.pid) && (await greets(known.port))) return handle(root, known);
  ensureInnInstalled((m) => console.error(`[inn] ${m}`));
  const port = await freePort();
  const conf = path.join(root, 'etc', 'inn.conf');
  writeInnInstance({ root, conf, port, username: USER, password: PASSWORD, group: GROUP });
  const child = spawn(`${INN_BIN}/innd`, ['-f'], {
    env: { ...process.env, INNCONF: conf },
    uid: newsId('-u'),
    gid: newsId('-g'),
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
  const state = { pid: child.pid!, port };
  const deadline = Date.now() + 20_000;
  while (!(await greets(port))) {
    if (!alive(state.pid) || Date.now() > deadline) {
      throw new Error(`innd did not start on 127.0.0.1:${port}; see ${path.join(root, 'log')}:\n${tailLogs(root)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  writeFileSync(stateFile, JSON.stringify(state));
  return handle(root, state);
}

/** Stop the INN recorded under root, if any (by its PID). */
export async function stopInn(root = DEFAULT_INN_ROOT): Promise<void> {
  const state = readState(path.join(root, 'state.json'));
  if (!state || !alive(state.pid)) return;
  process.kill(state.pid, 'SIGTERM');
  for (let i = 0; i < 100 && alive(state.pid); i++) await new Promise((r) => setTimeout(r, 50));
  if (alive(state.pid)) process.kill(state.pid, 'SIGKILL');
}

function handle(root: string, state: State): InnServer {
  const target: PostTarget = { host: '127.0.0.1', port: state.port, username: USER, password: PASSWORD, group: GROUP };
  return {
    ...target,
    pid: state.pid,
    root,
    postFile: (name, bytes, opts) => postFile(target, name, bytes, opts),
    postArticles: (articles, connections) => postArticles(target, articles, connections),
    stop: () => stopInn(root),
  };
}

function readState(file: string): State | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as State;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** True when something on the port answers with an NNTP 200 greeting. */
function greets(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(2000, () => done(false));
    s.once('error', () => done(false));
    s.once('data', (d) => {
      s.write('QUIT\r\n');
      done(d.toString('latin1').startsWith('200'));
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function tailLogs(root: string): string {
  return ['news.err', 'news.crit', 'errlog', 'news.notice']
    .map((f) => path.join(root, 'log', f))
    .filter((f) => existsSync(f))
    .map((f) => `${f}: ${readFileSync(f, 'utf8').split('\n').slice(-8).join('\n')}`)
    .join('\n');
}
