import pg from 'pg';
import type { Logger } from '../../logging/logger.js';
import { checkEpoch, LeaderFence, termOn } from './leader-fence.js';
import { PgListener } from './pg-listener.js';

/** A client inside one transaction (`PgDb.tx`): the same `query` as the pool's, on one connection. */
export interface PgTx {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, params?: unknown[]): Promise<pg.QueryResult<R>>;
}

export interface TxOptions {
  /** `serializable` for a read-check-write that must not interleave (retried on a serialization failure). */
  isolation?: 'read committed' | 'repeatable read' | 'serializable';
  /**
   * Takes `pg_advisory_xact_lock(lock)` first, so every transaction naming the same lock runs one at a time, on
   * every node (held until commit or rollback). The lock numbers in use: `PG_LOCKS` below.
   */
  lock?: number;
  /**
   * Only the leader makes this write (the runner's claim): refused with `FencedOut` unless this node leads, even
   * outside the leader's work (leader-fence.ts). Any transaction inside the leader's work is fenced without it.
   */
  leaderOnly?: boolean;
}

/** The advisory lock numbers Spool takes (one list, so two domains never share one by accident). */
export const PG_LOCKS = {
  migrations: 7_270_001,
  leader: 7_270_002,
  tree: 7_270_003,
  users: 7_270_004,
  queueClaim: 7_270_005,
  jobDirs: 7_270_006,
  health: 7_270_007,
  config: 7_270_008,
  patches: 7_270_009,
} as const;

/**
 * Spool's PostgreSQL database (docs/deployment.md, "Several nodes"): a connection pool for queries and
 * transactions, and one listening connection for LISTEN/NOTIFY. Every domain's PostgreSQL store takes this.
 */
export interface PgDb {
  /** The URL with its password masked (for logs). */
  readonly label: string;
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, params?: unknown[]): Promise<pg.QueryResult<R>>;
  /**
   * Runs `work` in one transaction: BEGIN, `work`, COMMIT; ROLLBACK if it throws. A serialization failure or a
   * deadlock runs `work` again (up to 5 times), so `work` must not have effects outside the transaction.
   */
  tx<T>(work: (tx: PgTx) => Promise<T>, opts?: TxOptions): Promise<T>;
  /** `NOTIFY channel, payload` (delivered to every listener, this node's too, once the sending transaction commits). */
  notify(channel: string, payload: string): Promise<void>;
  /**
   * Calls `handler` with each notification's payload on `channel`. `onReconnect` runs after the listening
   * connection was lost and came back: notifications sent meanwhile are gone, so a listener re-reads what it keeps.
   * Returns the unsubscribe.
   */
  listen(channel: string, handler: (payload: string) => void, onReconnect?: () => void): () => void;
  /**
   * Resolves true once this node listens on every channel subscribed so far, false if the listening connection
   * was not up within `timeoutMs` (default 5 s; the subscribers' `onReconnect` covers that case). A store that keeps
   * a copy in memory subscribes, awaits this, then reads: a change committed after its read is always heard.
   */
  listening(timeoutMs?: number): Promise<boolean>;
  /** The lease epoch this node holds, checked by every transaction of the leader's work (leader-fence.ts). */
  readonly fence: LeaderFence;
  /** A dedicated connection outside the pool (a session-level lock such as the leader lease holds one). */
  connect(): Promise<pg.Client>;
  close(): Promise<void>;
}

export interface OpenPgOptions {
  logger?: Logger;
  /** Shown in pg_stat_activity (`spool <node>`). */
  applicationName?: string;
  /** Pool size (default 10). */
  max?: number;
}

const RETRYABLE = new Set(['40001', '40P01']); // serialization_failure, deadlock_detected

/**
 * The server ends a pool session left inside a transaction this long without a statement (a node stopped or hung
 * in the middle of one): its locks, the leader epoch's share lock above all, would otherwise wait for it forever.
 */
const IDLE_IN_TRANSACTION_MS = 30_000;

/** A statement that writes nothing (run as it is, even inside the leader's work). */
const READ_ONLY = /^\s*SELECT\b/i;

/** Opens the pool and checks the server answers (a wrong URL or password fails here, with the server's words). */
export async function openPgDb(url: string, opts: OpenPgOptions = {}): Promise<PgDb> {
  const label = maskUrl(url);
  const config: pg.ClientConfig = { connectionString: url, application_name: opts.applicationName ?? 'spool' };
  const pool = await connectPool(config, label, opts);
  const listener = new PgListener(() => new pg.Client(config), opts.logger);
  let closed: Promise<void> | null = null;
  const fence = new LeaderFence();
  const self = {};
  /** The epoch a transaction must find, if it is fenced: the leader's work's term, else a leader-only write's. */
  const fencedBy = (o: TxOptions): number | null | undefined =>
    termOn(self)?.epoch ?? (o.leaderOnly ? fence.epoch : undefined);
  const tx = transactions(pool, fence, fencedBy, label, opts.logger);

  return Object.assign(self, {
    label,
    fence,
    // Inside the leader's work a write is a fenced transaction of its own.
    query: <R extends pg.QueryResultRow>(text: string, params?: unknown[]) =>
      termOn(self) && !READ_ONLY.test(text) ? tx((c) => c.query<R>(text, params)) : pool.query<R>(text, params),
    tx,
    async notify(channel, payload) {
      await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    listen: (channel, handler, onReconnect) => listener.subscribe(channel, handler, onReconnect),
    listening: (timeoutMs) => listener.listening(timeoutMs),
    async connect() {
      const client = new pg.Client(config);
      client.on('error', (err) => opts.logger?.warn('postgresql connection lost', { db: label, error: err.message }));
      await client.connect();
      return client;
    },
    close() {
      closed ??= (async () => {
        await listener.close();
        await pool.end();
      })();
      return closed;
    },
  } satisfies PgDb);
}

/** The pool, once the server answered a first query; a server that does not answer fails with its words. */
async function connectPool(config: pg.ClientConfig, label: string, opts: OpenPgOptions): Promise<pg.Pool> {
  const pool = new pg.Pool({
    ...config,
    max: opts.max ?? 10,
    idleTimeoutMillis: 30_000,
    idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
  });
  // An idle client's error (the server restarted) must not crash the process; the pool drops that client.
  pool.on('error', (err) => opts.logger?.warn('postgresql connection lost', { db: label, error: err.message }));
  try {
    await pool.query('SELECT 1');
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw new Error(`Cannot reach PostgreSQL at ${label}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return pool;
}

/**
 * Runs `work` in a transaction on a client of `pool`: fenced by the epoch `fencedBy` names (checked in the same
 * transaction), under an advisory lock if asked, retried up to five times on a serialization failure or deadlock.
 */
function transactions(
  pool: pg.Pool,
  fence: LeaderFence,
  fencedBy: (o: TxOptions) => number | null | undefined,
  label: string,
  logger: OpenPgOptions['logger'],
) {
  return async <T>(work: (tx: PgTx) => Promise<T>, o: TxOptions = {}): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      const client = await pool.connect();
      let broken = false;
      // The pool listens for errors on idle clients only: without this, a connection lost in the middle of a
      // transaction is an uncaught 'error' (the process dies). The query in flight rejects with it all the same.
      const lost = (err: Error) => {
        broken = true;
        logger?.warn('postgresql connection lost in a transaction', { db: label, error: err.message });
      };
      client.on('error', lost);
      try {
        await client.query(o.isolation ? `BEGIN ISOLATION LEVEL ${o.isolation.toUpperCase()}` : 'BEGIN');
        const epoch = fencedBy(o);
        if (epoch !== undefined) await checkEpoch(client, fence, epoch);
        if (o.lock !== undefined) await client.query('SELECT pg_advisory_xact_lock($1)', [o.lock]);
        const out = await work(client);
        await client.query('COMMIT');
        return out;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => (broken = true));
        const code = (err as { code?: string }).code;
        if (attempt < 5 && code && RETRYABLE.has(code)) continue;
        throw err;
      } finally {
        client.removeListener('error', lost);
        client.release(broken);
      }
    }
  };
}

/** `postgres://user:secret@host/db` → `postgres://user:***@host/db`. */
export function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://(unparsable url)';
  }
}
