import { PG_LOCKS, type PgDb, type PgTx } from '../store/pg/index.js';
import type { UserStore, UserTx } from './auth.port.js';
import type { UserRecord } from './user.js';

/**
 * Users in PostgreSQL (the auth port's UserStore, auth.port.ts): `auth_users` holds each record as jsonb with its
 * lookups as unique columns (lower-cased name and email, API key). A unit of work reads every user under the users'
 * advisory lock, runs against them in memory and writes back what it saved, in one transaction: two nodes' checks
 * and inserts cannot interleave (two first registrations cannot both become admin).
 */
export class PgUserStore implements UserStore {
  constructor(private readonly db: PgDb) {}

  async count(): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>('SELECT count(*)::int AS n FROM auth_users');
    return rows[0]?.n ?? 0;
  }

  get(id: string): Promise<UserRecord | undefined> {
    return this.one('id = $1', id);
  }

  byName(name: string): Promise<UserRecord | undefined> {
    return this.one('name_key = $1', name.toLowerCase());
  }

  byEmail(email: string): Promise<UserRecord | undefined> {
    return this.one('email_key = $1', email.toLowerCase());
  }

  byApiKey(key: string): Promise<UserRecord | undefined> {
    return this.one('api_key = $1', key);
  }

  async list(offset: number, limit: number): Promise<UserRecord[]> {
    const { rows } = await this.db.query<{ record: UserRecord }>(
      'SELECT record FROM auth_users ORDER BY id OFFSET $1 LIMIT $2',
      [offset, limit],
    );
    return rows.map((r) => r.record);
  }

  all(): Promise<UserRecord[]> {
    return readAll(this.db);
  }

  atomically<T>(work: (tx: UserTx) => T): Promise<T> {
    return this.db.tx(
      async (tx) => {
        const unit = new UserUnit(await readAll(tx));
        const out = work(unit);
        for (const user of unit.saved()) await saveUser(tx, user);
        return out;
      },
      { lock: PG_LOCKS.users },
    );
  }

  private async one(where: string, value: string): Promise<UserRecord | undefined> {
    const { rows } = await this.db.query<{ record: UserRecord }>(`SELECT record FROM auth_users WHERE ${where}`, [
      value,
    ]);
    return rows[0]?.record;
  }
}

/**
 * Inserts or replaces one user with its lookup columns; `insertOnly` (the copy from LMDB into an empty database)
 * fails on a user already there instead.
 */
export async function saveUser(tx: PgTx, user: UserRecord, insertOnly = false): Promise<void> {
  await tx.query(
    `INSERT INTO auth_users (id, name_key, email_key, api_key, record) VALUES ($1, $2, $3, $4, $5)
     ${insertOnly ? '' : CONFLICT_REPLACES}`,
    [user.id, user.name.toLowerCase(), user.email ? user.email.toLowerCase() : null, user.api_key, user],
  );
}

const CONFLICT_REPLACES = `ON CONFLICT (id) DO UPDATE SET name_key = EXCLUDED.name_key, email_key = EXCLUDED.email_key,
  api_key = EXCLUDED.api_key, record = EXCLUDED.record`;

async function readAll(db: PgTx): Promise<UserRecord[]> {
  const { rows } = await db.query<{ record: UserRecord }>('SELECT record FROM auth_users ORDER BY id');
  return rows.map((r) => r.record);
}

/** The users as one unit of work sees them: every user read at its start, plus what it saved since. */
class UserUnit implements UserTx {
  private readonly users = new Map<string, UserRecord>();
  private readonly changed = new Set<string>();

  constructor(users: UserRecord[]) {
    for (const u of users) this.users.set(u.id, u);
  }

  count(): number {
    return this.users.size;
  }

  get(id: string): UserRecord | undefined {
    return this.users.get(id);
  }

  byName(name: string): UserRecord | undefined {
    const key = name.toLowerCase();
    return this.find((u) => u.name.toLowerCase() === key);
  }

  byEmail(email: string): UserRecord | undefined {
    const key = email.toLowerCase();
    return this.find((u) => !!u.email && u.email.toLowerCase() === key);
  }

  all(): UserRecord[] {
    return [...this.users.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  save(user: UserRecord): void {
    this.users.set(user.id, user);
    this.changed.add(user.id);
  }

  saved(): UserRecord[] {
    return [...this.changed].map((id) => this.users.get(id)!);
  }

  private find(match: (u: UserRecord) => boolean): UserRecord | undefined {
    for (const u of this.users.values()) if (match(u)) return u;
    return undefined;
  }
}
