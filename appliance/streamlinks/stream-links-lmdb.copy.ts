import { isDeepStrictEqual } from 'node:util';
import type { CopyToLmdb } from '../store/pg/index.js';
import { openPgStreamLinkStore } from './stream-links-pg.store.js';
import { openStreamLinkStore, readStreamLinkSecret, writeStreamLinkSecret } from './stream-links.store.js';

/**
 * A PostgreSQL install's stream links and their signing secret into an empty LMDB environment (every link handed
 * out, in `.strm` files too, keeps working), read back through the LMDB store and compared.
 */
export const copyStreamLinksToLmdb: CopyToLmdb = async (from, to, progress) => {
  const links = await openPgStreamLinkStore(from).list();
  const secret = (await from.query<{ secret: Buffer }>('SELECT secret FROM stream_link_secret')).rows[0]?.secret;
  progress(`copying ${links.length} stream links`);
  const lmdb = openStreamLinkStore(to);
  if (secret) writeStreamLinkSecret(to, secret);
  for (const l of links) await lmdb.put(l);
  if (!isDeepStrictEqual(await lmdb.list(), links)) throw new Error('the stream links read back differ');
  if (secret && !readStreamLinkSecret(to)?.equals(secret)) throw new Error('the stream links secret read back differs');
  return [{ scope: 'streamlinks', records: links.length + (secret ? 1 : 0) }];
};
