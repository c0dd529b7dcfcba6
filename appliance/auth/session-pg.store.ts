import { createHash } from 'node:crypto';
import type { PgDb } from '../store/pg/index.js';
import type { SessionRecord, SessionStore } from './auth.port.js';

interface SessionRow {
  user_id: string;
  created_at: string;
  expires_at: string;
}

/**
 * Sessions in PostgreSQL (the auth port's SessionStore, auth.port.ts), keyed by the SHA-256 of the session id as
 * the LMDB store keys them (session.store.ts): the database never holds a live cookie.
 */
export class PgSessionStore implements SessionStore {
  constructor(private readonly db: PgDb) {}

  /** The key a session is stored under. */
  static hashOf(id: string): string {
    return createHash('sha256').update(id).digest('hex');
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    return (await this.byHash(PgSessionStore.hashOf(id))) ?? undefined;
  }

  async put(id: string, record: SessionRecord): Promise<void> {
    await this.putHashed(PgSessionStore.hashOf(id), record);
  }

  async remove(id: string): Promise<void> {
    await this.db.query('DELETE FROM auth_sessions WHERE id_hash = $1', [PgSessionStore.hashOf(id)]);
  }

  async removeForUser(userId: string): Promise<number> {
    return (await this.db.query('DELETE FROM auth_sessions WHERE user_id = $1', [userId])).rowCount ?? 0;
  }

  async purgeExpired(now: number): Promise<number> {
    return (await this.db.query('DELETE FROM auth_sessions WHERE expires_at <= $1', [now])).rowCount ?? 0;
  }

  async count(): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>('SELECT count(*)::int AS n FROM auth_sessions');
    return rows[0]?.n ?? 0;
  }

  /** One session by its stored hash (the copy from LMDB reads back what it wrote through this). */
  async byHash(hash: string): Promise<SessionRecord | undefined> {
    const { rows } = await this.db.query<SessionRow>(
      'SELECT user_id, created_at, expires_at FROM auth_sessions WHERE id_hash = $1',
      [hash],
    );
    const r = rows[0];
    return r && { user_id: r.user_id, created_at: Number(r.created_at), expires_at: Number(r.expires_at) };
  }

  /**
   * Stores a session under an already hashed id; `insertOnly` (the copy from LMDB, which holds only hashes, into an
   * empty database) fails on one already there instead of replacing it.
   */
  async putHashed(hash: string, record: SessionRecord, insertOnly = false): Promise<void> {
    await this.db.query(
      `INSERT INTO auth_sessions (id_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)
       ${insertOnly ? '' : CONFLICT_REPLACES}`,
      [hash, record.user_id, record.created_at, record.expires_at],
    );
  }
}

const CONFLICT_REPLACES = `ON CONFLICT (id_hash) DO UPDATE SET user_id = EXCLUDED.user_id,
  created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at`;
