import { join, resolve } from 'node:path';
import { openLmdbAuthStores } from '../auth/auth-lmdb.store.js';
import type { ConfigService } from '../config/index.js';
import type { EventBus, SpoolEvents } from '../events/index.js';
import { openHealthStore } from '../health/index.js';
import { LmdbQueueStore } from '../importer/queue-lmdb.store.js';
import { QUEUE_MIGRATIONS } from '../importer/queue.migrations.js';
import type { Logger } from '../logging/logger.js';
import { LmdbPar2FileStore } from '../repair/par2-files.store.js';
import { DiskPatchStore } from '../repair/patch.store.js';
import { LmdbDownloadTotalsStore, LmdbNzoIdStore } from '../sabnzbd/index.js';
import { migrate, openStore, type Store } from '../store/index.js';
import { LmdbFetchedBytesStore } from '../streams/fetched-bytes.store.js';
import { SidecarStore } from '../vfs/sidecar.store.js';
import { VFS_MIGRATIONS } from '../vfs/tree.migrations.js';
import { LmdbTreeStore } from '../vfs/tree.store.js';
import type { SpoolStores } from './spool-stores.js';
import { openPgStores } from './stores-pg.js';

export type { SpoolStores } from './spool-stores.js';

export interface OpenStoresOptions {
  config: ConfigService;
  /** The health store announces each record it writes on the bus (health.record.changed). */
  events: EventBus<SpoolEvents>;
  logger: Logger;
  /** SPOOL_DATABASE_URL (main.ts): wins over `metadata.database_url`. */
  databaseUrl?: string;
  /** This node's name (app/cluster/node-id.ts), shown in pg_stat_activity. */
  nodeId?: string;
}

/** The PostgreSQL URL in use, if any: the env's (AppOptions.databaseUrl), else `metadata.database_url`. */
export function databaseUrlIn(config: ConfigService, override?: string): string | undefined {
  return override || config.get().metadata.database_url || undefined;
}

/** Opens the node's LMDB environment, then every port: on PostgreSQL when a database URL is set, else on LMDB. */
export async function openStores(opts: OpenStoresOptions): Promise<SpoolStores> {
  const local = openStore({
    rootPath: resolve(opts.config.dataDir, opts.config.get().metadata.root_path),
    logger: opts.logger.child('store'),
  });
  const url = databaseUrlIn(opts.config, opts.databaseUrl);
  try {
    if (url) return await openPgStores({ ...opts, url, local });
    return openLmdbStores(local, opts);
  } catch (err) {
    await local.close();
    throw err;
  }
}

/**
 * Every port on the one LMDB environment, each domain's schema brought up to date first (in the order the app
 * has always run them: auth, health, vfs, queue).
 */
function openLmdbStores(local: Store, opts: OpenStoresOptions): SpoolStores {
  const { users, sessions } = openLmdbAuthStores(local);
  const health = openHealthStore(local, opts.events);
  migrate(local, 'vfs', VFS_MIGRATIONS);
  const tree = new LmdbTreeStore({
    nodes: local.openDb('vfs-nodes'),
    layouts: local.openDb('vfs-layouts'),
    meta: local.openDb('vfs-meta'),
  });
  migrate(local, 'queue', QUEUE_MIGRATIONS);
  return {
    local,
    users,
    sessions,
    queue: new LmdbQueueStore(local),
    tree,
    sidecars: new SidecarStore(join(opts.config.dataDir, 'sidecars')),
    health,
    patches: new DiskPatchStore(local, join(opts.config.dataDir, 'patches')),
    par2Files: new LmdbPar2FileStore(local),
    nzoIds: new LmdbNzoIdStore(local),
    downloadTotals: new LmdbDownloadTotalsStore(local),
    fetchedBytes: new LmdbFetchedBytesStore(local),
    close: () => local.close(),
  };
}
