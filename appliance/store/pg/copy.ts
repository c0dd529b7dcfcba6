import type { Store } from '../store.js';
import type { PgDb } from './pg-db.js';

/** What one domain's copy from LMDB into PostgreSQL moved, once it checked the copy (`spool migrate`). */
export interface CopyReport {
  /** The domain's schema scope ('auth', 'queue', 'tree', ...). */
  scope: string;
  /** Records copied and found equal when read back through the PostgreSQL store. */
  records: number;
  /** Payload bytes copied, when the domain has blobs (NZBs, layouts, patches). */
  bytes?: number;
}

/**
 * One domain's part of moving an install (docs/deployment.md, "Moving from LMDB"): copies what the domain keeps
 * in the LMDB environment `from` into the empty, migrated PostgreSQL database `to`, then reads every record back
 * through the domain's PostgreSQL store and compares it with the LMDB one; throws on the first difference.
 */
export type CopyToPg = (from: Store, to: PgDb, progress: (message: string) => void) => Promise<CopyReport[]>;

/**
 * One domain's part of moving an install the other way (`spool migrate --from <postgres url> --to <data dir>`, and
 * the backend-neutral copy a PostgreSQL backup carries, docs/backups.md): copies what the domain keeps in the
 * PostgreSQL database `from` into the empty LMDB environment `to` (its LMDB schema brought up to date first), then
 * reads every record back through the domain's LMDB store and compares it with PostgreSQL; throws on the first
 * difference. Only reads `from`.
 */
export type CopyToLmdb = (from: PgDb, to: Store, progress: (message: string) => void) => Promise<CopyReport[]>;
