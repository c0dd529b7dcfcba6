import type { StorageDomain } from '../store/index.js';
import { openPgFetchedBytes } from './fetched-bytes-pg.store.js';
import type { FetchedBytesStore } from './fetched-bytes.port.js';
import { LmdbFetchedBytesStore } from './fetched-bytes.store.js';
import { STREAMS_PG_MIGRATIONS } from './streams-pg.migrations.js';
import { copyStreamsToLmdb } from './streams-lmdb.copy.js';
import { copyStreamsToPg } from './streams.copy.js';

/**
 * The bytes fetched per class per day (on PostgreSQL each node's flush is an increment; every node's copy in memory
 * follows the others' on `spool_streams`).
 */
export const streamsStorage: StorageDomain<{ fetchedBytes: FetchedBytesStore }> = {
  scope: 'streams',
  lmdb: ({ local }) => ({ fetchedBytes: new LmdbFetchedBytesStore(local) }),
  pg: {
    migrations: STREAMS_PG_MIGRATIONS,
    async open(at) {
      const fetchedBytes = await openPgFetchedBytes(at.db, at.logger.child('streams'));
      at.onClose(async () => {
        await fetchedBytes.flushed().catch(() => undefined);
        fetchedBytes.close();
      });
      return { fetchedBytes };
    },
  },
  copy: ({ store, db, progress }) => copyStreamsToPg(store, db, progress),
  copyToLmdb: ({ store, db, progress }) => copyStreamsToLmdb(db, store, progress),
};
