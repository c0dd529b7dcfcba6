/**
 * A real INN 2 server for integration tests and benchmarks: installed if missing, configured as a private
 * instance on a free loopback port with AUTHINFO required, started by PID and reused while it runs (also by
 * other test files and later runs: its PID and port are kept in <root>/state.json).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { freePort } from '../free-port.js';
import { ensureInnInstalled, INN_BIN } from './install.js';
import { writeInnInstance } from './config.js';
import { alive, readState, spawnAsNews, stopDaemon, waitUntilReady, type DaemonState } from './daemon.js';
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

/** Returns a running INN, starting (and installing) it only when needed. Safe to call from every test file. */
export async function ensureInn(root = DEFAULT_INN_ROOT): Promise<InnServer> {
  const stateFile = path.join(root, 'state.json');
  const known = readState(stateFile);
  if (known && alive(known.pid) && (await greets(known.port))) return handle(root, known);
  ensureInnInstalled((m) => console.error(`[inn] ${m}`));
  const port = await freePort();
  const conf = path.join(root, 'etc', 'inn.conf');
  writeInnInstance({ root, conf, port, username: USER, password: PASSWORD, group: GROUP });
  const state = { pid: spawnAsNews(`${INN_BIN}/innd`, ['-f'], conf), port };
  await waitUntilReady(
    state.pid,
    () => greets(port),
    () => `innd did not start on 127.0.0.1:${port}; see ${path.join(root, 'log')}:\n${tailLogs(root)}`,
  );
  writeFileSync(stateFile, JSON.stringify(state));
  return handle(root, state);
}

/** Stop the INN recorded under root, if any (by its PID). */
export function stopInn(root = DEFAULT_INN_ROOT): Promise<void> {
  return stopDaemon(path.join(root, 'state.json'));
}

function handle(root: string, state: DaemonState): InnServer {
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

/** True when something on the port answers with an NNTP 200 greeting. */
export function greets(port: number): Promise<boolean> {
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

function tailLogs(root: string): string {
  return ['news.err', 'news.crit', 'errlog', 'news.notice']
    .map((f) => path.join(root, 'log', f))
    .filter((f) => existsSync(f))
    .map((f) => `${f}: ${readFileSync(f, 'utf8').split('\n').slice(-8).join('\n')}`)
    .join('\n');
}
