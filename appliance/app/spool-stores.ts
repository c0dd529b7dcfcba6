import type { Store } from '../store/index.js';
import type { PgDb } from '../store/pg/index.js';
import type { StoragePorts } from './storage-domains.js';

/**
 * Every storage port the app uses (docs/architecture.md, "Storage ports"): the ports of every domain in
 * STORAGE_DOMAINS (app/storage-domains.ts; each port is described in its domain's storage module), from one store:
 * the embedded LMDB one (the default) or the PostgreSQL one shared by several nodes (`metadata.database_url`). The
 * domains take these ports, never the store behind them.
 */
export interface SpoolStores extends StoragePorts {
  /**
   * The node's own LMDB environment (`metadata.root_path`), always open: in LMDB mode it holds everything; in
   * PostgreSQL mode only what stays on the node (the tree's replica, docs/architecture.md "Several nodes").
   */
  local: Store;
  /** The shared PostgreSQL database, in PostgreSQL mode only. */
  pg?: PgDb;
  /** Closes the PostgreSQL side (listeners, pool) then the LMDB environment. */
  close(): Promise<void>;
}
