import { CONFIG_PG_MIGRATIONS } from '../../config/config-pg.migrations.js';
import { shareConfig } from '../../config/config-pg.store.js';
import type { PgSlot } from './slot.js';

/**
 * SLOT config: the configuration document every node shares (docs/configuration.md, "Several nodes"). Opened first,
 * so every other store and domain is built with the shared settings; its stop goes on the closers.
 */
export const configPg: PgSlot<void> = {
  scope: 'config',
  migrations: CONFIG_PG_MIGRATIONS,
  async open(ctx) {
    ctx.onClose(await shareConfig(ctx.config, ctx.db, ctx.logger.child('config')));
  },
};
