import type { StorageDomain } from '../store/index.js';
import { CONFIG_PG_MIGRATIONS } from './config-pg.migrations.js';
import { shareConfig } from './config-pg.store.js';
import type { ConfigService } from './index.js';

/**
 * The configuration's storage. On one node it is the YAML file alone (config.service.ts), so LMDB holds nothing of
 * it and `spool migrate` copies nothing (the first node on PostgreSQL seeds the shared document from its file). On
 * several nodes, the document every node shares (docs/configuration.md, "Several nodes"): first in the list, so every
 * other store and domain opens with the shared settings.
 */
export const configStorage: StorageDomain<object, { config: ConfigService }> = {
  scope: 'config',
  lmdb: () => ({}),
  pg: {
    migrations: CONFIG_PG_MIGRATIONS,
    async open(at) {
      at.onClose(await shareConfig(at.config, at.db, at.logger.child('config')));
      return {};
    },
  },
  copy: null,
  // The YAML file is the config on LMDB; a PostgreSQL backup carries it (config.yaml), and `spool migrate` into LMDB
  // leaves the target's file as it is.
  copyToLmdb: null,
};
