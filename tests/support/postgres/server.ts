/**
 * A real PostgreSQL (Debian's `postgresql` package, scripts/system-deps.mjs) for the tests of the PostgreSQL store:
 * `initdb` in a temporary directory, `postgres` on a free loopback port, password (scram) auth, run as the
 * `postgres` system user (initdb refuses root). Stopped by its PID; the directory goes with it.
 *
 *   const pg = await startPostgres();          // once per test file (about 2 s)
 *   const url = await pg.createDatabase();     // a fresh empty database per test
 *   ...; await pg.stop();
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../free-port.js';
import { HUNG_RUN_MS } from '../wait.js';

const USER = 'spool';
const PASSWORD = 'spool-test-pg-password';

export interface PostgresServer {
  host: string;
  port: number;
  pid: number;
  /** postgres://spool:…@127.0.0.1:port/<db> */
  urlOf(database: string): string;
  /** Creates a new empty database and returns its URL. */
  createDatabase(name?: string): Promise<string>;
  /** SIGTERM (fast shutdown), SIGKILL after 10 s; removes the data directory. */
  stop(): Promise<void>;
}

/** The newest installed server's bin dir (/usr/lib/postgresql/<major>/bin). */
export function postgresBin(): string {
  const base = '/usr/lib/postgresql';
  const majors = existsSync(base) ? readdirSync(base).filter((d) => /^\d+$/.test(d)) : [];
  const major = majors.sort((a, b) => Number(b) - Number(a))[0];
  if (!major || !existsSync(join(base, major, 'bin', 'postgres')))
    throw new Error('PostgreSQL is not installed: run `apt-get install -y postgresql` (scripts/system-deps.mjs)');
  return join(base, major, 'bin');
}

function ids(): { uid: number; gid: number } {
  const u = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const g = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (u.status !== 0) throw new Error('no `postgres` system user: is the postgresql package installed?');
  return { uid: Number(u.stdout.trim()), gid: Number(g.stdout.trim()) };
}

let counter = 0;

export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBin();
  const { uid, gid } = ids();
  const dir = mkdtempSync(join(tmpdir(), 'spool-pg-'));
  chownSync(dir, uid, gid);
  const data = join(dir, 'data');
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, PASSWORD);
  chownSync(pwfile, uid, gid);
  const init = spawnSync(
    join(bin, 'initdb'),
    ['-D', data, '-U', USER, `--pwfile=${pwfile}`, '--auth=scram-sha-256', '-E', 'UTF8', '--locale=C.UTF-8'],
    { uid, gid, encoding: 'utf8', cwd: dir },
  );
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  }
  // A free port can be taken by another process between freePort() and postgres binding it (CI runs side by side,
  // other servers starting): that start fails with "Address already in use" and is tried again on another port.
  let run: Running | undefined;
  for (let attempt = 1; !run; attempt++) {
    const started = await runPostgres(bin, data, dir, await freePort(), { uid, gid });
    if ('child' in started) run = started;
    else if (!/Address already in use/.test(started.stderr) || attempt === 5) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`postgres did not start on 127.0.0.1:${started.port}:\n${started.stderr}`);
    }
  }
  const { child, port, exited } = run;
  const urlOf = (db: string) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${db}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT'); // fast shutdown: clients are disconnected, no wait for them
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return {
    host: '127.0.0.1',
    port,
    pid: child.pid!,
    urlOf,
    async createDatabase(name) {
      const db = name ?? `spool_${process.pid}_${++counter}`;
      const c = new pg.Client({ connectionString: urlOf('postgres') });
      await c.connect();
      try {
        await c.query(`CREATE DATABASE ${db}`);
      } finally {
        await c.end();
      }
      return urlOf(db);
    },
    stop,
  };
}

interface Running {
  child: ChildProcess;
  port: number;
  exited: Promise<void>;
}

/** Starts postgres on `port` and waits until it takes a connection; its stderr when it could not start. */
async function runPostgres(
  bin: string,
  data: string,
  dir: string,
  port: number,
  user: { uid: number; gid: number },
): Promise<Running | { port: number; stderr: string }> {
  const child: ChildProcess = spawn(
    join(bin, 'postgres'),
    ['-D', data, '-h', '127.0.0.1', '-p', String(port), '-k', dir, '-c', 'fsync=off', '-c', 'max_connections=200'],
    { ...user, cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (b: Buffer) => (stderr = (stderr + b.toString()).slice(-4000)));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const deadline = Date.now() + HUNG_RUN_MS; // a cap for a hung start, not a speed (tests/support/wait.ts)
  for (;;) {
    const c = new pg.Client({ connectionString: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres` });
    try {
      await c.connect();
      await c.end();
      return { child, port, exited };
    } catch {
      await c.end().catch(() => undefined);
      if (child.exitCode !== null || Date.now() > deadline) {
        if (child.exitCode === null) {
          child.kill('SIGKILL');
          await exited;
        }
        return { port, stderr };
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
