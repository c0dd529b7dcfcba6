import { resolve } from 'node:path';
import type { ConfigService } from '../config/index.js';
import type { EventBus, SpoolEvents } from '../events/index.js';
import type { Logger } from '../logging/logger.js';
import { openStore, pgSchemasOf, type Store } from '../store/index.js';
import { migratePg, openPgDb, type PgDb } from '../store/pg/index.js';
import type { SpoolStores } from './spool-stores.js';
import { STORAGE_DOMAINS, type StoragePorts } from './storage-domains.js';

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

/**
 * Opens the node's LMDB environment, then every domain's ports (STORAGE_DOMAINS, in order): on PostgreSQL when a
 * database URL is set, else on LMDB.
 */
export async function openStores(opts: OpenStoresOptions): Promise<SpoolStores> {
  const local = openStore({
    rootPath: resolve(opts.config.dataDir, opts.config.get().metadata.root_path),
    logger: opts.logger.child('store'),
  });
  const url = databaseUrlIn(opts.config, opts.databaseUrl);
  try {
    if (url) return await openPgStores(url, local, opts);
    return openLmdbStores(local, opts);
  } catch (err) {
    await local.close();
    throw err;
  }
}

/** Every domain's ports on the one LMDB environment, each domain's LMDB schema brought up to date as it opens. */
function openLmdbStores(local: Store, { config, events, logger }: OpenStoresOptions): SpoolStores {
  const at = { local, dataDir: config.dataDir, logger, config, events };
  const ports = {} as StoragePorts;
  for (const domain of STORAGE_DOMAINS) Object.assign(ports, domain.lmdb(at));
  return { ...ports, local, close: () => local.close() };
}

/**
 * Every domain's ports on PostgreSQL (docs/architecture.md, "Several nodes"): opens the database, brings every
 * domain's schema up to date (under the migrations lock, so nodes starting together never both run a step), then
 * opens each domain's ports in order.
 */
async function openPgStores(url: string, local: Store, opts: OpenStoresOptions): Promise<SpoolStores> {
  const logger = opts.logger.child('pg');
  const db = await openPgDb(url, { logger, applicationName: opts.nodeId ? `spool ${opts.nodeId}` : 'spool' });
  const closers: (() => void | Promise<void>)[] = [];
  const closeAll = () => closeDomains(db, closers, logger);
  try {
    await migratePg(db, pgSchemasOf(STORAGE_DOMAINS));
    const onClose = (close: () => void | Promise<void>) => void closers.push(close);
    const at = { db, local, dataDir: opts.config.dataDir, logger, config: opts.config, events: opts.events, onClose };
    const ports = {} as StoragePorts;
    for (const domain of STORAGE_DOMAINS) Object.assign(ports, await domain.pg.open(at));
    logger.info('stores on postgresql', { db: db.label });
    const close = async () => {
      await closeAll();
      await local.close();
    };
    return { ...ports, local, pg: db, close };
  } catch (err) {
    await closeAll();
    throw err;
  }
}

/** Runs the domains' stops in reverse order (logging any that fails), then closes the database. */
async function closeDomains(db: PgDb, closers: (() => void | Promise<void>)[], logger: Logger): Promise<void> {
  for (const close of closers.splice(0).reverse())
    await Promise.resolve()
      .then(close)
      .catch((err: Error) => logger.warn('error while closing a store', { error: err.message }));
  await db.close();
}
