import { join } from 'node:path';
import { restoreDump, type BackupManifest } from '../backup/index.js';
import type { Logger } from '../logging/logger.js';
import { emptyCurrentSchema, openPgDb } from '../store/pg/index.js';
import { migrateToPg } from './migrate-to-pg.js';
import { STORAGE_DOMAINS } from './storage-domains.js';

/**
 * How a PostgreSQL install takes a restored store (docs/backups.md "PostgreSQL"), run once the app has stopped and
 * after the safety backup was written: a PostgreSQL dump is restored in one transaction (`pg_restore --clean`); an
 * LMDB archive goes through the same per-domain copy as `spool migrate` (app/migrate-to-pg.ts: every record read
 * back and compared) into the emptied database. Undefined on LMDB.
 */
export function databaseLoader(
  url: string,
  logger: Logger,
): ((stagedDir: string, manifest: BackupManifest) => Promise<void>) | undefined {
  if (!url) return undefined;
  return async (stagedDir, manifest) => {
    if (manifest.store === 'postgres') {
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
