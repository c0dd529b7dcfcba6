import { randomBytes } from 'node:crypto';
import type { PgDb } from '../store/pg/index.js';
import type { StreamLinkRecord, StreamLinkStore } from './stream-links.port.js';

/**
 * Stream links in the PostgreSQL database several nodes share (the port: stream-links.port.ts): `stream_links` holds
 * each link as jsonb, `stream_link_secret` the one signing secret. Nothing is kept in memory: every check reads the
 * link and the secret, so a link revoked or a secret rotated on one node is refused by every node at its next
 * request (a player's next range request included).
 */
export function openPgStreamLinkStore(db: PgDb): StreamLinkStore {
  return {
    async secret() {
      // The first node to need one makes it; a node racing it keeps the one that won.
      await db.query('INSERT INTO stream_link_secret (secret) VALUES ($1) ON CONFLICT (one) DO NOTHING', [
        randomBytes(32),
      ]);
      const { rows } = await db.query<{ secret: Buffer }>('SELECT secret FROM stream_link_secret');
      return rows[0]!.secret;
    },
    async rotateSecret() {
      await db.query(
        `INSERT INTO stream_link_secret (secret) VALUES ($1)
         ON CONFLICT (one) DO UPDATE SET secret = EXCLUDED.secret`,
        [randomBytes(32)],
      );
    },
    async get(id) {
      const { rows } = await db.query<{ record: StreamLinkRecord }>('SELECT record FROM stream_links WHERE id = $1', [
        id,
      ]);
      return rows[0]?.record;
    },
    async put(link) {
      await db.query(
        `INSERT INTO stream_links (id, created_at, record) VALUES ($1, $2, $3)
         ON CONFLICT (id) DO UPDATE SET created_at = EXCLUDED.created_at, record = EXCLUDED.record`,
        [link.id, link.createdAt, link],
      );
    },
    async remove(id) {
      const { rowCount } = await db.query('DELETE FROM stream_links WHERE id = $1', [id]);
      return (rowCount ?? 0) > 0;
    },
    async list() {
      const { rows } = await db.query<{ record: StreamLinkRecord }>(
        'SELECT record FROM stream_links ORDER BY created_at, id',
      );
      return rows.map((r) => r.record);
    },
  };
}
