import { randomBytes } from 'node:crypto';
import type { Store } from '../store/store.js';
import type { StreamLinkRecord, StreamLinkStore } from './stream-links.port.js';

const SECRET_KEY = 'stream_links.secret';

/** The LMDB install's signing secret, if one was ever made (what `spool migrate` copies). */
export function readStreamLinkSecret(local: Store): Buffer | undefined {
  const v = local.settings.get(SECRET_KEY);
  return typeof v === 'string' ? Buffer.from(v, 'base64') : undefined;
}

/** Sets the signing secret (the copy from PostgreSQL). */
export function writeStreamLinkSecret(local: Store, secret: Buffer): void {
  local.settings.putSync(SECRET_KEY, secret.toString('base64'));
}

/** Stream links in the `stream_links` database of the node's LMDB environment; the secret in the store's settings. */
export function openStreamLinkStore(local: Store): StreamLinkStore {
  const db = local.openDb<StreamLinkRecord, string>('stream_links');
  const current = () => readStreamLinkSecret(local);
  return {
    async secret() {
      const have = current();
      if (have) return have;
      const made = randomBytes(32);
      local.settings.putSync(SECRET_KEY, made.toString('base64'));
      return made;
    },
    async rotateSecret() {
      await local.settings.put(SECRET_KEY, randomBytes(32).toString('base64'));
    },
    get: async (id) => db.get(id),
    async put(link) {
      await db.put(link.id, link);
    },
    // lmdb's remove answers true for a key that was not there: look inside the same write.
    remove: (id) =>
      db.transaction(() => {
        const had = db.get(id) !== undefined;
        if (had) db.removeSync(id);
        return had;
      }),
    list: async () => [...db.getRange()].map((e) => e.value).sort((a, b) => a.createdAt - b.createdAt),
  };
}
