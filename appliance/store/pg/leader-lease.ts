import type pg from 'pg';
import type { Logger } from '../../logging/logger.js';
import { PG_LOCKS, type PgDb } from './pg-db.js';

export type LeaseRole = 'leader' | 'follower';

export interface LeaderLeaseOptions {
  /** This node's name in the logs (app/cluster/node-id.ts). */
  nodeId: string;
  logger: Logger;
  /** How often a follower tries to take the lease (ms). */
  retryMs?: number;
  /** How often the leader checks its lease connection, and how long it waits for the answer (ms). */
  heartbeatMs?: number;
}

/**
 * The server closes a lease connection it no longer hears from within about 20 s (idle 5 s, then 3 probes 2 s
 * apart; unacknowledged data gives up after 10 s), which frees the lock for another node. The leader itself gives
 * the lead up sooner: at its first heartbeat without an answer.
 */
const KEEPALIVES =
  'SET tcp_keepalives_idle = 5; SET tcp_keepalives_interval = 2; SET tcp_keepalives_count = 3; SET tcp_user_timeout = 10000';

/**
 * A lease session that sends nothing for this long is ended by the server (`idle_session_timeout`, PostgreSQL 14+):
 * a leader that hangs without dying (its process stopped, its event loop blocked) has a kernel that still answers
 * keepalives, so only its silence frees the lock. Heartbeats (leader) and attempts (follower) come far more often.
 */
const SILENT_SESSION_MS = 15_000;

/**
 * The leader lease (docs/architecture.md, "Several nodes"): a session advisory lock, `PG_LOCKS.leader`, held on a
 * connection of its own. A follower tries for it every `retryMs`; the leader runs `SELECT 1` on it every
 * `heartbeatMs`. Any error on that connection, or a heartbeat without an answer in time, demotes the node at once
 * (the lock may still be held by the dying session, so it is dropped, not reused), and it tries again later. The
 * lock goes with its session, so two nodes never hold it together: a new leader gets it only once the server has
 * closed the old leader's session, and the old leader stops leading as soon as it notices it lost that session.
 */
export class LeaderLease {
  private current: LeaseRole = 'follower';
  private client: pg.Client | null = null;
  private readonly listeners = new Set<(role: LeaseRole) => void>();
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: PgDb,
    private readonly o: LeaderLeaseOptions,
  ) {}

  get role(): LeaseRole {
    return this.current;
  }

  onChange(change: (role: LeaseRole) => void): () => void {
    this.listeners.add(change);
    return () => this.listeners.delete(change);
  }

  /** Tries for the lease now, then keeps trying (follower) or checking it (leader) until `close`. */
  start(): void {
    this.next(0, () => this.attempt());
  }

  /** Gives the lease up (the lock is released with its session) and stops trying. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.pending;
    const client = this.client;
    this.client = null;
    this.become('follower');
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
    }
  }

  private next(ms: number, step: () => Promise<void>): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.pending = step();
    }, ms);
    this.timer.unref();
  }

  private async attempt(): Promise<void> {
    let client = this.client;
    try {
      client ??= await this.open();
      const { rows } = await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1) AS got', [
        PG_LOCKS.leader,
      ]);
      if (this.closed || this.client !== client) return;
      if (rows[0]?.got) {
        this.become('leader');
        this.next(this.heartbeatMs, () => this.heartbeat());
      } else this.next(this.retryMs, () => this.attempt());
    } catch (err) {
      if (this.closed) return;
      if (client) this.lost(client, err);
      else {
        this.o.logger.warn('cannot reach postgresql for the leader lease', { error: (err as Error).message });
        this.next(this.retryMs, () => this.attempt());
      }
    }
  }

  private async heartbeat(): Promise<void> {
    const client = this.client;
    if (!client) return;
    let timeout: NodeJS.Timeout | undefined;
    const silent = new Promise<never>((_, reject) => {
      timeout = setTimeout(() => reject(new Error('no answer on the lease connection')), this.heartbeatMs);
    });
    try {
      await Promise.race([client.query('SELECT 1'), silent]);
      if (this.client === client) this.next(this.heartbeatMs, () => this.heartbeat());
    } catch (err) {
      this.lost(client, err);
    } finally {
      clearTimeout(timeout);
    }
  }

  private async open(): Promise<pg.Client> {
    const client = await this.db.connect();
    try {
      await client.query(KEEPALIVES);
      // older servers lack the setting: they keep only the keepalives
      await client.query(`SET idle_session_timeout = ${SILENT_SESSION_MS}`).catch(() => undefined);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      throw new Error('lease closed');
    }
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    this.client = client;
    return client;
  }

  /** The lease connection failed: lead no more, drop the connection (never reused), try again after `retryMs`. */
  private lost(client: pg.Client, err?: unknown): void {
    if (this.client !== client) return;
    this.client = null;
    client.removeAllListeners('end');
    client.on('error', () => undefined); // late errors of a dropped connection
    void client.end().catch(() => undefined);
    const reason = err instanceof Error ? err.message : 'connection ended';
    if (this.current === 'leader') this.o.logger.warn('leader lease lost', { node: this.o.nodeId, error: reason });
    this.become('follower');
    this.next(this.retryMs, () => this.attempt());
  }

  private become(role: LeaseRole): void {
    if (role === this.current) return;
    this.current = role;
    if (role === 'leader') this.o.logger.info('this node leads', { node: this.o.nodeId });
    for (const change of this.listeners) {
      try {
        change(role);
      } catch (err) {
        this.o.logger.error('leader change handler failed', { error: (err as Error).message });
      }
    }
  }

  private get retryMs(): number {
    return this.o.retryMs ?? 2500;
  }

  private get heartbeatMs(): number {
    return this.o.heartbeatMs ?? 2000;
  }
}
