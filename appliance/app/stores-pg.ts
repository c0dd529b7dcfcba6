import type { ConfigService } from '../config/index.js';
import type { EventBus, SpoolEvents } from '../events/index.js';
import type { Logger } from '../logging/logger.js';
import type { Store } from '../store/index.js';
import { migratePg, openPgDb } from '../store/pg/index.js';
import { authPg } from './pg-slots/auth.js';
import { configPg } from './pg-slots/config.js';
import { healthPg } from './pg-slots/health.js';
import { queuePg } from './pg-slots/queue.js';
import { repairPg } from './pg-slots/repair.js';
import { sabnzbdPg } from './pg-slots/sabnzbd.js';
import type { PgSlotContext } from './pg-slots/slot.js';
import { streamsPg } from './pg-slots/streams.js';
import { treePg } from './pg-slots/tree.js';
import type { SpoolStores } from './spool-stores.js';

export interface OpenPgStoresOptions {
  url: string;
  /** The node's LMDB environment, already open (closed by the caller if this fails). */
  local: Store;
  config: ConfigService;
  events: EventBus<SpoolEvents>;
  logger: Logger;
  /** Shown in pg_stat_activity as `spool <nodeId>`. */
  nodeId?: string;
}

/** Every domain's PostgreSQL store: one slot each, in app/pg-slots/. */
export const PG_SLOTS = [configPg, authPg, healthPg, treePg, queuePg, repairPg, sabnzbdPg, streamsPg];

/**
 * The PostgreSQL branch of openStores (docs/architecture.md, "Several nodes"): opens the database, brings every
 * domain's schema up to date (under the migrations lock, so nodes starting together never both run a step), then
 * opens each domain's ports from its slot.
 */
export async function openPgStores(opts: OpenPgStoresOptions): Promise<SpoolStores> {
  const logger = opts.logger.child('pg');
  const db = await openPgDb(opts.url, {
    logger,
    applicationName: opts.nodeId ? `spool ${opts.nodeId}` : 'spool',
  });
  const closers: (() => void | Promise<void>)[] = [];
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse())
      await Promise.resolve()
        .then(close)
        .catch((err: Error) => logger.warn('error while closing a store', { error: err.message }));
    await db.close();
  };
  try {
    await migratePg(db, Object.fromEntries(PG_SLOTS.map((s) => [s.scope, s.migrations])));
    const ctx: PgSlotContext = {
      db,
      local: opts.local,
      config: opts.config,
      events: opts.events,
      logger,
      onClose: (close) => void closers.push(close),
    };
    await configPg.open(ctx); // first: the other stores open with the shared settings
    const { users, sessions } = await authPg.open(ctx);
    const health = await healthPg.open(ctx);
    const { tree, sidecars } = await treePg.open(ctx);
    const queue = await queuePg.open(ctx);
    const { patches, par2Files } = await repairPg.open(ctx);
    const { nzoIds, downloadTotals } = await sabnzbdPg.open(ctx);
    const fetchedBytes = await streamsPg.open(ctx);
    logger.info('stores on postgresql', { db: db.label });
    return {
      local: opts.local,
      pg: db,
      users,
      sessions,
      queue,
      tree,
      sidecars,
      health,
      patches,
      par2Files,
      nzoIds,
      downloadTotals,
      fetchedBytes,
      async close() {
        await closeAll();
        await opts.local.close();
      },
    };
  } catch (err) {
    await closeAll();
    throw err;
  }
}
