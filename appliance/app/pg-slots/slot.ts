import type { ConfigService } from '../../config/index.js';
import type { EventBus, SpoolEvents } from '../../events/index.js';
import type { Logger } from '../../logging/logger.js';
import type { Store } from '../../store/index.js';
import type { PgDb, PgMigration } from '../../store/pg/index.js';

/** What a domain's PostgreSQL store may need when app/stores-pg.ts opens it. */
export interface PgSlotContext {
  db: PgDb;
  /** The node's own LMDB environment (node-local state, such as the tree's replica). */
  local: Store;
  config: ConfigService;
  events: EventBus<SpoolEvents>;
  logger: Logger;
  /** Something to stop before the database closes (an unlisten, a timer); run in reverse order. */
  onClose(close: () => void | Promise<void>): void;
}

/**
 * One domain's place in the PostgreSQL store (one file per domain in this folder, so each domain's store lands in
 * its own file): its schema scope and steps (`<DOMAIN>_PG_MIGRATIONS`, run by `migratePg` at every start, under a
 * lock) and how its ports open.
 */
export interface PgSlot<Ports> {
  scope: string;
  migrations: readonly PgMigration[];
  open(ctx: PgSlotContext): Ports | Promise<Ports>;
}

/** A slot whose PostgreSQL store has not landed: PostgreSQL mode refuses to start, naming it. */
export function notBuiltYet<Ports>(scope: string, what: string): PgSlot<Ports> {
  return {
    scope,
    migrations: [],
    open: () => {
      throw new Error(`PostgreSQL store for ${what} is not built yet`);
    },
  };
}
