import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  dumpPostgres,
  pgToolInstalled,
  restoreDump,
  type BackupManifest,
  type StoreCopyChoice,
} from '../backup/index.js';
import type { Logger } from '../logging/logger.js';
import { emptyCurrentSchema, openPgDb, openPgSnapshot } from '../store/pg/index.js';
import { copyPgIntoLmdb } from './migrate-to-lmdb.js';
import { migrateToPg } from './migrate-to-pg.js';
import { dataFolders, STORAGE_DOMAINS } from './storage-domains.js';

/**
 * A PostgreSQL install's copy of its store for a backup (docs/backups.md "The archive"): the backend-neutral copy,
 * every domain's `copyToLmdb` (the copy `spool migrate` makes into LMDB, each record read back and compared) from one
 * read-only snapshot of the database into an LMDB environment in the scratch folder (`db/data.mdb`, with the patch
 * blobs and sidecars it writes out as `patches/*` and `sidecars/*`), so an LMDB install can restore it without a
 * PostgreSQL server; and, where pg_dump is installed, the dump (`db/postgres.dump`), which a PostgreSQL install
 * restores with pg_restore. Without pg_dump the archive carries the neutral copy only (logged).
 */
export async function snapshotPostgres(
  url: string,
  scratch: string,
  logger: Logger,
  pgDumpInstalled: () => boolean = () => pgToolInstalled('pg_dump'),
): Promise<{ name: string; path: string }[]> {
  const neutral = join(scratch, 'neutral');
  await mkdir(neutral, { recursive: true });
  const db = await openPgSnapshot(url);
  try {
    const lines: string[] = [];
    const out = await copyPgIntoLmdb({
      db,
      dataDir: neutral,
      rootPath: neutral,
      domains: STORAGE_DOMAINS,
      print: (l) => lines.push(l),
      logger,
    });
    if (out.failures.length > 0)
      throw new Error(
        `the backend-neutral copy failed: ${out.failures.map((f) => `${f.scope}: ${f.error}`).join('; ')}`,
      );
  } finally {
    await db.close();
  }
  const entries = [{ name: 'db/data.mdb', path: join(neutral, 'db', 'data.mdb') }];
  for (const folder of dataFolders(neutral))
    for (const name of (await readdir(folder.dir).catch(() => [])).filter((n) => folder.file.test(n)).sort())
      entries.push({ name: `${folder.name}/${name}`, path: join(folder.dir, name) });
  if (pgDumpInstalled()) entries.push(...(await dumpPostgres(url, scratch)));
  else logger.warn('backup: pg_dump is not installed: the archive carries the backend-neutral copy only', {});
  logger.info('backup: PostgreSQL store copied', {
    neutral: true,
    dump: entries.some((e) => e.name === 'db/postgres.dump'),
  });
  return entries;
}

/**
 * How a PostgreSQL install takes a restored store (docs/backups.md "PostgreSQL"), run once the app has stopped and
 * after the safety backup was written: a PostgreSQL dump is restored in one transaction (`pg_restore --clean`); an
 * LMDB archive, or a PostgreSQL archive's backend-neutral copy where pg_restore is not installed, goes through the
 * same per-domain copy as `spool migrate` (app/migrate-to-pg.ts: every record read back and compared) into the
 * emptied database (the choice: backup/store-copies.ts). Undefined on LMDB.
 */
export function databaseLoader(
  url: string,
  logger: Logger,
): ((stagedDir: string, manifest: BackupManifest, choice: StoreCopyChoice) => Promise<void>) | undefined {
  if (!url) return undefined;
  return async (stagedDir, _manifest, choice) => {
    logger.info(`restore: into PostgreSQL from ${choice.why}`, { copy: choice.copy });
    if (choice.copy === 'dump') {
      await restoreDump(url, join(stagedDir, 'db', 'postgres.dump'));
      return;
    }
    const db = await openPgDb(url, { logger, applicationName: 'spool restore', max: 1 });
    try {
      await emptyCurrentSchema(db);
    } finally {
      await db.close();
    }
    const lines: string[] = [];
    const outcome = await migrateToPg({
      from: stagedDir,
      rootPath: stagedDir,
      to: url,
      domains: STORAGE_DOMAINS,
      print: (line) => lines.push(line),
      logger,
    });
    if (outcome.failures.length > 0)
      throw new Error(
        `the copy into PostgreSQL failed: ${outcome.failures.map((f) => `${f.scope}: ${f.error}`).join('; ')}`,
      );
    logger.info('LMDB backup copied into PostgreSQL', { lines: lines.length });
  };
}
