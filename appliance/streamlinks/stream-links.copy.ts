import { isDeepStrictEqual } from 'node:util';
import type { Store } from '../store/index.js';
import type { CopyToPg, PgDb } from '../store/pg/index.js';
import { openPgStreamLinkStore } from './stream-links-pg.store.js';
import { openStreamLinkStore, readStreamLinkSecret } from './stream-links.store.js';

/**
 * Copies an LMDB install's stream links and their signing secret into PostgreSQL (`spool migrate`), so every link
 * handed out (in `.strm` files too) keeps working, then reads them back through the PostgreSQL store and compares.
 */
export const copyStreamLinksToPg: CopyToPg = async (from: Store, to: PgDb, progress) => {
  const links = await openStreamLinkStore(from).list();
  const secret = readStreamLinkSecret(from);
  progress(`copying ${links.length} stream links`);
  await to.tx(async (tx) => {
    if (secret) await tx.query('INSERT INTO stream_link_secret (secret) VALUES ($1)', [secret]);
    for (const l of links)
      await tx.query('INSERT INTO stream_links (id, created_at, record) VALUES ($1, $2, $3)', [l.id, l.createdAt, l]);
  });
  const copied = openPgStreamLinkStore(to);
  if (!isDeepStrictEqual(await copied.list(), links)) throw new Error('the stream links read back differ from LMDB');
  if (secret && !(await copied.secret()).equals(secret))
    throw new Error('the stream links secret read back differs from LMDB');
  return [{ scope: 'streamlinks', records: links.length + (secret ? 1 : 0) }];
};
