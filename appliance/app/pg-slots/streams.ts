import type { FetchedBytesStore } from '../../streams/fetched-bytes.port.js';
import { openPgFetchedBytes } from '../../streams/fetched-bytes-pg.store.js';
import { STREAMS_PG_MIGRATIONS } from '../../streams/streams-pg.migrations.js';
import type { PgSlot } from './slot.js';

/**
 * The bytes fetched per class per day on PostgreSQL (each node's flush is an increment; every node's copy in memory
 * follows the others' on `spool_streams`).
 */
export const streamsPg: PgSlot<FetchedBytesStore> = {
  scope: 'streams',
  migrations: STREAMS_PG_MIGRATIONS,
  async open(ctx) {
    const store = await openPgFetchedBytes(ctx.db, ctx.logger.child('streams'));
    ctx.onClose(async () => {
      await store.flushed().catch(() => undefined);
      store.close();
    });
    return store;
  },
};
