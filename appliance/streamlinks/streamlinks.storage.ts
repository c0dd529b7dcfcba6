import type { StorageDomain } from '../store/index.js';
import { STREAM_LINKS_PG_MIGRATIONS } from './stream-links-pg.migrations.js';
import { openPgStreamLinkStore } from './stream-links-pg.store.js';
import type { StreamLinkStore } from './stream-links.port.js';
import { openStreamLinkStore } from './stream-links.store.js';
import { copyStreamLinksToLmdb } from './stream-links-lmdb.copy.js';
import { copyStreamLinksToPg } from './stream-links.copy.js';

/**
 * Stream links and their signing secret: on the node's LMDB, or shared by every node in PostgreSQL (a link made on
 * one node plays through any; one revoked on any is refused by all).
 */
export const streamLinksStorage: StorageDomain<{ streamLinks: StreamLinkStore }> = {
  scope: 'streamlinks',
  lmdb: ({ local }) => ({ streamLinks: openStreamLinkStore(local) }),
  pg: {
    migrations: STREAM_LINKS_PG_MIGRATIONS,
    open: ({ db }) => ({ streamLinks: openPgStreamLinkStore(db) }),
  },
  copy: ({ store, db, progress }) => copyStreamLinksToPg(store, db, progress),
  copyToLmdb: ({ store, db, progress }) => copyStreamLinksToLmdb(db, store, progress),
};
