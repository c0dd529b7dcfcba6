/**
 * `spool migrate --from <data dir> --to <postgres url>` (docs/deployment.md, "Moving from LMDB") and the other way,
 * `spool migrate --from <postgres url> --to <data dir>` ("Moving from PostgreSQL to LMDB"), reached through
 * `node main.js migrate ...` or `npm run migrate -- ...`: reads the arguments and runs app/migrate-to-pg.ts or
 * app/migrate-to-lmdb.ts. Exits 0 when every domain was copied and checked, 1 on any difference or a refusal, 2 on
 * wrong arguments.
 */
import { parseArgs } from 'node:util';
import { migrateToLmdb } from './app/migrate-to-lmdb.js';
import { migrateToPg, MigrateRefused } from './app/migrate-to-pg.js';
import { STORAGE_DOMAINS } from './app/storage-domains.js';

const USAGE =
  'usage: spool migrate --from <LMDB data dir> --to <postgres://user:password@host:port/database>\n' +
  '       spool migrate --from <postgres://user:password@host:port/database> --to <new LMDB data dir>';
const PG_URL = /^postgres(ql)?:\/\/./;

export async function runMigrateCommand(args: string[]): Promise<number> {
  let from: string | undefined;
  let to: string | undefined;
  try {
    ({ from, to } = parseArgs({ args, options: { from: { type: 'string' }, to: { type: 'string' } } }).values);
  } catch (err) {
    return usage(err instanceof Error ? err.message : String(err));
  }
  if (!from || !to) return usage('both --from and --to are required');
  if (PG_URL.test(from) === PG_URL.test(to))
    return usage('one of --from and --to must be a postgres:// or postgresql:// URL, the other a data dir');
  const print = (line: string) => process.stdout.write(`${line}\n`);
  try {
    const out = PG_URL.test(to)
      ? await migrateToPg({ from, to, domains: STORAGE_DOMAINS, print })
      : await migrateToLmdb({ from, to, domains: STORAGE_DOMAINS, print });
    if (out.failures.length === 0) {
      const records = out.reports.reduce((n, r) => n + r.records, 0);
      const bytes = out.reports.reduce((n, r) => n + (r.bytes ?? 0), 0);
      print(`done: every domain copied and checked (${records} records, ${bytes} bytes)`);
      return 0;
    }
    process.stderr.write(`spool migrate: the copy is not whole (${out.failures.map((f) => f.scope).join(', ')})\n`);
    return 1;
  } catch (err) {
    const known = err instanceof MigrateRefused;
    process.stderr.write(
      `spool migrate: ${known ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    return 1;
  }
}

function usage(problem: string): number {
  process.stderr.write(`spool migrate: ${problem}\n${USAGE}\n`);
  return 2;
}
