import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * PostgreSQL backups through Debian's client programs (`pg_dump`, `pg_restore`, package postgresql-client): a
 * custom-format dump taken in one snapshot transaction while Spool serves. The password travels in the child's
 * environment (PGPASSWORD), never on its command line.
 */
function connection(url: string): { args: string[]; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { args: ['--dbname', u.toString()], env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

async function pgTool(tool: string, args: string[], env?: NodeJS.ProcessEnv): Promise<string> {
  try {
    const { stdout } = await run(tool, args, { env, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') throw new Error(`${tool} is not installed (Debian: apt-get install postgresql-client)`);
    throw new Error(`${tool} failed: ${(e.stderr ?? e.message).trim().split('\n').slice(-3).join(' ')}`);
  }
}

/** Dumps the database into `scratch/postgres.dump`; the archive entry `db/postgres.dump`. */
export async function dumpPostgres(url: string, scratch: string): Promise<{ name: string; path: string }[]> {
  const { args, env } = connection(url);
  const file = join(scratch, 'postgres.dump');
  await pgTool('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', '--file', file, ...args], env);
  return [{ name: 'db/postgres.dump', path: file }];
}

/** Reads the dump's table of contents through; throws when pg_restore cannot. Returns the number of items. */
export async function checkDumpReadable(file: string): Promise<number> {
  const list = await pgTool('pg_restore', ['--list', file]);
  const items = list.split('\n').filter((l) => /^\d+;/.test(l)).length;
  if (items === 0) throw new Error('the dump lists nothing');
  return items;
}

/** Replaces the database's objects with the dump's, in one transaction (a failure changes nothing). */
export async function restoreDump(url: string, file: string): Promise<void> {
  const { args, env } = connection(url);
  const flags = ['--clean', '--if-exists', '--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error'];
  await pgTool('pg_restore', [...flags, ...args, file], env);
}

/** Whether Debian's client program `tool` (pg_dump, pg_restore) runs on this host: a PostgreSQL backup takes its
 * dump only then, and a restore into PostgreSQL uses pg_restore only then (docs/backups.md "Which copy"). */
export function pgToolInstalled(tool: 'pg_dump' | 'pg_restore'): boolean {
  return spawnSync(tool, ['--version'], { stdio: 'ignore', timeout: 30_000 }).status === 0;
}
