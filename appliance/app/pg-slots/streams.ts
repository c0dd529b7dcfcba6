import type { FetchedBytesStore } from '../../streams/fetched-bytes.port.js';
import { notBuiltYet, type PgSlot } from './slot.js';

/**
 * SLOT streams (bytes fetched per class per day). To fill: scope 'streams', migrations STREAMS_PG_MIGRATIONS
 * (streams/streams-pg.migrations.ts), open: the fetched-bytes store.
 */
export const streamsPg: PgSlot<FetchedBytesStore> = notBuiltYet('streams', 'fetched bytes');
