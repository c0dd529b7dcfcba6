import type { Logger } from '../../logging/logger.js';
import { LeaderLease } from '../../store/pg/index.js';
import type { SpoolStores } from '../spool-stores.js';

export type NodeRole = 'leader' | 'follower';

/**
 * Whether this node does the background work (docs/architecture.md, "Several nodes"): on PostgreSQL the node holding
 * the leader lease (store/pg/leader-lease.ts); on LMDB always (`ALWAYS_LEADER`).
 */
export interface Leadership {
  readonly role: NodeRole;
  /** Calls `change` on every change of role (not with the current one). Returns the unsubscribe. */
  onChange(change: (role: NodeRole) => void): () => void;
  /**
   * Runs `work`, and all it starts, as the leader's work of the current term: on PostgreSQL its writes commit only
   * while no other node took the lease since (store/pg/leader-fence.ts); on LMDB it just runs.
   */
  runAsLeader<T>(work: () => T): T;
}

/** One node alone on its store: it leads from start to stop. */
export const ALWAYS_LEADER: Leadership = {
  role: 'leader',
  onChange: () => () => undefined,
  runAsLeader: (work) => work(),
};

/**
 * This node's leadership: on PostgreSQL the lease (tried at once, then every `retryMs`); on LMDB always the leader.
 * Returns it and its close (gives the lease up).
 */
export function openLeadership(
  stores: Pick<SpoolStores, 'pg'>,
  nodeId: string,
  logger: Logger,
  timing: { retryMs?: number; heartbeatMs?: number } = {},
): { leadership: Leadership; close(): Promise<void> } {
  logger.info('node', { node: nodeId, store: stores.pg ? 'postgresql' : 'lmdb' });
  if (!stores.pg) return { leadership: ALWAYS_LEADER, close: async () => undefined };
  const lease = new LeaderLease(stores.pg, { nodeId, logger, ...timing });
  lease.start();
  return { leadership: lease, close: () => lease.close() };
}

/** Something that runs only on the leader: started when the node gains the lead, stopped when it loses it. */
export interface BackgroundWork {
  name: string;
  start(): void | Promise<void>;
  /** `lost`: the lead was lost (another node takes the work over), not a stop of the app. */
  stop(lost: boolean): Promise<void>;
}

/**
 * Runs `work` while `leadership` says leader: started in order on gaining the lead (at once if the node leads
 * already), each inside the term (`runAsLeader`: what it writes is fenced), stopped in reverse order on losing it. Changes are applied one at a time and only the latest role
 * counts, so a flap never leaves work started twice or stopped half way. `stop()` (the app's stop) stops it for
 * good and resolves once it is stopped.
 */
export function gateWork(
  leadership: Leadership,
  work: readonly BackgroundWork[],
  logger: Logger,
): { stop(): Promise<void> } {
  let running = false;
  let closed = false;
  let chain: Promise<void> = Promise.resolve();
  const settle = () => {
    chain = chain.then(async () => {
      const want = !closed && leadership.role === 'leader';
      if (want === running) return;
      running = want;
      if (want) {
        logger.info('leading: background work starts', { work: work.map((w) => w.name) });
        for (const w of work) await guarded(logger, w.name, 'start', () => leadership.runAsLeader(() => w.start()));
      } else {
        if (!closed) logger.warn('no longer leading: background work stops', { work: work.map((w) => w.name) });
        for (const w of [...work].reverse()) await guarded(logger, w.name, 'stop', () => w.stop(!closed));
        // everything the work had in flight has ended: nothing it started writes after this line
        if (!closed) logger.info('background work stopped', { work: work.map((w) => w.name) });
      }
    });
    return chain;
  };
  const off = leadership.onChange(() => void settle());
  void settle();
  return {
    stop() {
      closed = true;
      off();
      return settle();
    },
  };
}

async function guarded(logger: Logger, name: string, what: string, run: () => void | Promise<void>): Promise<void> {
  try {
    await run();
  } catch (err) {
    logger.error(`background work could not ${what}`, { work: name, error: (err as Error).message });
  }
}
