import type { SessionStore, UserStore } from '../auth/auth.port.js';
import type { HealthStore } from '../health/index.js';
import type { QueueStore } from '../importer/queue.port.js';
import type { Par2FileStore, PatchStore } from '../repair/index.js';
import type { DownloadTotalsStore, NzoIdStore } from '../sabnzbd/index.js';
import type { Store } from '../store/index.js';
import type { PgDb } from '../store/pg/index.js';
import type { FetchedBytesStore } from '../streams/fetched-bytes.port.js';
import type { SidecarFiles } from '../vfs/sidecar.port.js';
import type { TreeStore } from '../vfs/tree.port.js';

/**
 * Every storage port the app uses (docs/architecture.md, "Storage ports"), from one store: the embedded LMDB one
 * (the default) or the PostgreSQL one shared by several nodes (`metadata.database_url`, stores-pg.ts). The domains
 * take these ports, never the store behind them.
 */
export interface SpoolStores {
  /**
   * The node's own LMDB environment (`metadata.root_path`), always open: in LMDB mode it holds everything; in
   * PostgreSQL mode only what stays on the node (the tree's replica, docs/architecture.md "Several nodes").
   */
  local: Store;
  /** The shared PostgreSQL database, in PostgreSQL mode only. */
  pg?: PgDb;
  users: UserStore;
  sessions: SessionStore;
  queue: QueueStore;
  tree: TreeStore;
  sidecars: SidecarFiles;
  /** Health records, verdicts (in memory) and the repair ledger (`health.ledger`). */
  health: HealthStore;
  /** PAR2 repairs' rebuilt bytes (the reader serves them) and the kept PAR2 files. */
  patches: PatchStore;
  par2Files: Par2FileStore;
  nzoIds: NzoIdStore;
  downloadTotals: DownloadTotalsStore;
  fetchedBytes: FetchedBytesStore;
  /** Closes the PostgreSQL side (listeners, pool) then the LMDB environment. */
  close(): Promise<void>;
}
