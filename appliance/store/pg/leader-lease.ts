import type pg from 'pg';
import type { FencedOut } from '../../errors/fenced-out.js';
import type { Logger } from '../../logging/logger.js';
import { runInTerm, TAKE_EPOCH_SQL } from './leader-fence.js';
import { PG_LOCKS, type PgDb } from './pg-db.js';
import { migratePg, type PgMigration } from './pg-migrations.js';

export type LeaseRole = 'leader' | 'follower';

/** The epoch row: one row, created by the first lease taken. */
const LEADER_PG_MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    description: 'leader_epoch: the lease epoch every leader-only write is checked against',
    async up(tx) {
      await tx.query(
        'CREATE TABLE leader_epoch (id smallint PRIMARY KEY CHECK (id = 1), epoch bigint NOT NULL, node text NOT NULL, taken_at timestamptz NOT NULL DEFAULT now())',
      );
    },
  },
];

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
 * Until it notices, the fence stops its writes: taking the lease moves the epoch in `leader_epoch` one up (on the
 * lease connection, before the node leads), and the leader's work (`runAsLeader`) commits only while the epoch is
 * its own (leader-fence.ts). A write refused so demotes the node at once, as a lost connection does.
 */
export class LeaderLease {
  private current: LeaseRole = 'follower';
  private client: pg.Client | null = null;
  private readonly listeners = new Set<(role: LeaseRole) => void>();
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private pending: Promise<void> = Promise.resolve();
  /** The epoch of the last lease this node took (its term), and whether a refused write of it was logged. */
  private epoch: number | null = null;
  private fencedLogged = false;
  private schema: Promise<void> | null = null;
  private readonly offFenced: () => void;

  constructor(
    private readonly db: PgDb,
    private readonly o: LeaderLeaseOptions,
  ) {
    db.fence.epoch = null;
    this.offFenced = db.fence.onFencedOut((err) => this.fencedOut(err));
  }

  get role(): LeaseRole {
    return this.current;
  }

  onChange(change: (role: LeaseRole) => void): () => void {
    this.listeners.add(change);
    return () => this.listeners.delete(change);
  }

  /**
   * Runs `work` (and everything it starts) as this node's leader's work: its transactions commit only while the
   * lease epoch is the one this node took (leader-fence.ts).
   */
  runAsLeader<T>(work: () => T): T {
    return runInTerm({ db: this.db, epoch: this.epoch ?? -1 }, work);
  }

  /** Tries for the lease now, then keeps trying (follower) or checking it (leader) until `close`. */
  start(): void {
    this.next(0, () => this.attempt());
  }

  /** Gives the lease up (the lock is released with its session) and stops trying. */
  async close(): Promise<void> {
    this.closed = true;
    this.offFenced();
    if (this.timer) clearTimeout(this.timer);
    await this.pending;
    const client = this.client;
    this.client = null;
    this.become('follower');
    this.db.fence.epoch = null;
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
      this.schema ??= migratePg(this.db, { leader: LEADER_PG_MIGRATIONS }).catch((err: unknown) => {
        this.schema = null;
        throw err;
      });
      await this.schema;
      client ??= await this.open();
      const { rows } = await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1) AS got', [
        PG_LOCKS.leader,
      ]);
      if (this.closed || this.client !== client) return;
      if (rows[0]?.got) {
        // The new term: every write of an older one is refused from this commit on (it waits for those in flight).
        const taken = await client.query<{ epoch: string }>(TAKE_EPOCH_SQL, [this.o.nodeId]);
        if (this.closed || this.client !== client) return;
        this.epoch = Number(taken.rows[0]!.epoch);
        this.db.fence.epoch = this.epoch;
        this.fencedLogged = false;
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

  /**
   * A write of the leader's work was refused: another node took the lease since. Logged once per term; the node
   * leads no more (its lease connection, if still open, is dropped as a failed one).
   */
  private fencedOut(err: FencedOut): void {
    // a leader-only write asked of a node that knows it does not lead, or an older term's late write: handled already
    if (err.epoch === null || err.epoch !== this.epoch) return;
    if (!this.fencedLogged) {
      this.fencedLogged = true;
      this.o.logger.warn('fenced out: another node took the lead; this node writes nothing more as leader', {
        node: this.o.nodeId,
        epoch: err.epoch,
        current: err.current,
      });
    }
    this.db.fence.epoch = null;
    if (this.client) this.lost(this.client, err);
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
    this.db.fence.epoch = null;
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
