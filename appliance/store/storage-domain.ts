import type { Logger } from '../logging/logger.js';
import type { CopyReport } from './pg/copy.js';
import type { PgDb } from './pg/pg-db.js';
import type { PgMigration } from './pg/pg-migrations.js';
import type { Store } from './store.js';

/** A folder under the data dir a domain keeps files in beside its LMDB records (the PAR2 patch blobs, the sidecars). */
export interface DataFolder {
  /** Its name under the data dir, and in a backup archive (`<name>/<file>`). */
  name: string;
  /** The names its committed files have (a blob, a sidecar id): never a path or a write in progress. */
  file: RegExp;
}

/** What a domain's LMDB opener gets: the node's LMDB environment and the data dir (for files kept beside it). */
export interface LmdbOpening {
  local: Store;
  dataDir: string;
  logger: Logger;
}

/** What a domain's PostgreSQL opener gets: the shared database, the node's own LMDB environment, the data dir. */
export interface PgOpening extends LmdbOpening {
  db: PgDb;
  /** Something to stop before the database closes (an unlisten, a timer); run in reverse order. */
  onClose(close: () => void | Promise<void>): void;
}

/**
 * What a domain's copy gets (`spool migrate`): the LMDB install's environment and data dir (the files beside it:
 * patches, sidecars), and the database. Into PostgreSQL the LMDB side is read and the migrated, empty database
 * written; into LMDB (`copyToLmdb`) the database is only read and the empty environment and data dir written.
 */
export interface CopyOpening {
  store: Store;
  db: PgDb;
  dataDir: string;
  progress(message: string): void;
}

/**
 * One domain's storage, in one module in the domain's own folder (`<domain>/<domain>.storage.ts`,
 * docs/architecture.md "Storage ports"): how its ports open on each backend, its PostgreSQL schema, and how
 * `spool migrate` moves its records. `Ports` is an object of the domain's ports (`{ queue: QueueStore }`), merged
 * by the app into one bundle; `Needs` is what the domain's stores take from the app besides the opening (the bus,
 * the config service).
 */
export interface StorageDomain<Ports extends object, Needs = unknown> {
  /** The schema scope in PostgreSQL ('queue', 'tree', ...): the name its migrations run under. */
  scope: string;
  /** The folder under the data dir its LMDB side keeps files in (backups carry it, restores put it back); if any. */
  folder?: DataFolder;
  /** Opens the ports on the node's LMDB environment, the domain's LMDB schema brought up to date first. */
  lmdb(at: LmdbOpening & Needs): Ports;
  pg: {
    /** The schema steps (`migratePg`: at every start, and by `spool migrate` before any copy). */
    migrations: readonly PgMigration[];
    open(at: PgOpening & Needs): Ports | Promise<Ports>;
  };
  /**
   * Copies what the domain keeps under LMDB into the empty, migrated database and reads every record back through
   * the PostgreSQL store to compare (store/pg/copy.ts); null only for a domain with nothing in LMDB (say why).
   */
  copy: ((at: CopyOpening) => Promise<CopyReport[]>) | null;
  /**
   * The same the other way (`spool migrate` into LMDB, a PostgreSQL backup's backend-neutral copy): what the domain
   * keeps in PostgreSQL into the empty LMDB environment (its LMDB schema brought up to date first) and the data
   * dir's files, every record read back through the LMDB store and compared; null only for a domain whose
   * PostgreSQL records have no LMDB counterpart (say why).
   */
  copyToLmdb: ((at: CopyOpening) => Promise<CopyReport[]>) | null;
}

/** The ports of every domain in a list, as one object type (what the app's bundle holds). */
export type PortsOf<List extends readonly StorageDomain<object, never>[]> = Intersect<PortsOfOne<List[number]>>;

type PortsOfOne<D> = D extends StorageDomain<infer Ports, never> ? Ports : never;

type Intersect<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/** Every domain's PostgreSQL schema steps by scope, as `migratePg` takes them. */
export function pgSchemasOf(
  domains: readonly { scope: string; pg: { migrations: readonly PgMigration[] } }[],
): Record<string, readonly PgMigration[]> {
  return Object.fromEntries(domains.map((d) => [d.scope, d.pg.migrations]));
}
