import { randomBytes } from 'node:crypto';
import type { Store } from '../store/store.js';
import type { StreamLinkRecord, StreamLinkStore } from './stream-links.port.js';

const SECRET_KEY = 'stream_links.secret';

/** Stream links in the `stream_links` database of the node's LMDB environment; the secret in the store's settings. */
export function openStreamLinkStore(local: Store): StreamLinkStore {
  const db = local.openDb<StreamLinkRecord, string>('stream_links');
  const current = (): Buffer | undefined => {
    const v = local.settings.get(SECRET_KEY);
    return typeof v === 'string' ? Buffer.from(v, 'base64') : undefined;
  };
  return {
    secret() {
      const have = current();
      if (have) return have;
      const made = randomBytes(32);
      local.settings.putSync(SECRET_KEY, made.toString('base64'));
      return made;
    },
    async rotateSecret() {
      await local.settings.put(SECRET_KEY, randomBytes(32).toString('base64'));
    },
    get: (id) => db.get(id),
    async put(link) {
      await db.put(link.id, link);
    },
    async remove(id) {
      return db.remove(id);
    },
    list: () => [...db.getRange()].map((e) => e.value),
  };
}
