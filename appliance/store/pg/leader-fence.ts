import { AsyncLocalStorage } from 'node:async_hooks';
import { FencedOut } from '../../errors/fenced-out.js';

/**
 * The fence of the leader lease (docs/architecture.md, "Several nodes", "Fencing"). Each time a node takes the
 * lease it moves the epoch in `leader_epoch` one up, on the lease's own connection (leader-lease.ts). The leader's
 * work runs inside its term (`runInTerm`: an async context, so timers, promises and callbacks started by that work
 * carry it); every transaction of a term first reads the epoch row `FOR SHARE` and is refused with `FencedOut` if it
 * moved. The share lock makes the two orderable: a new leader's increment waits for every fenced transaction in
 * flight, and any fenced transaction after it sees the new epoch. So a leader that lost the lease (stopped, cut off,
 * or simply slow to notice) commits nothing once another node leads.
 */
export interface LeaderTerm {
  /** Which database this term fences (several in one process in tests). */
  readonly db: object;
  readonly epoch: number;
}

const terms = new AsyncLocalStorage<LeaderTerm>();

/** Runs `work` (and all it starts) as the leader's work of `term`. */
export function runInTerm<T>(term: LeaderTerm, work: () => T): T {
  return terms.run(term, work);
}

/** The term the current code runs in on `db`, if it is leader's work. */
export function termOn(db: object): LeaderTerm | undefined {
  const term = terms.getStore();
  return term && term.db === db ? term : undefined;
}

/**
 * The node's side of the fence, one per database handle: the epoch its lease holds (`undefined` while no lease
 * was opened on it: one-off tools, store tests; `null` while it does not lead), and who hears of a refused write.
 */
export class LeaderFence {
  epoch: number | null | undefined = undefined;
  private readonly listeners = new Set<(refused: FencedOut) => void>();

  onFencedOut(listener: (refused: FencedOut) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells the listeners, outside any term (what they start is no leader's work of the refused term). */
  refused(err: FencedOut): void {
    terms.exit(() => {
      for (const l of this.listeners) l(err);
    });
  }
}

/** Moves the epoch one up (the lease was just taken by `node`); returns the new one. */
export const TAKE_EPOCH_SQL = `INSERT INTO leader_epoch (id, epoch, node) VALUES (1, 1, $1)
  ON CONFLICT (id) DO UPDATE SET epoch = leader_epoch.epoch + 1, node = EXCLUDED.node, taken_at = now()
  RETURNING epoch::text AS epoch`;

/** Locks the epoch row against a move until this transaction ends, and reads it. */
const CHECK_EPOCH_SQL = 'SELECT epoch::text AS epoch FROM leader_epoch WHERE id = 1 FOR SHARE';

/**
 * The check at the start of a fenced transaction: throws `FencedOut` (and tells the fence's listeners) unless the
 * epoch row still holds `epoch`. `epoch` null: the node does not lead, refused without asking.
 */
export async function checkEpoch(
  tx: { query<R extends object>(text: string): Promise<{ rows: R[] }> },
  fence: LeaderFence,
  epoch: number | null,
): Promise<void> {
  let current: number | null = null;
  if (epoch !== null) {
    const { rows } = await tx.query<{ epoch: string }>(CHECK_EPOCH_SQL);
    current = rows[0] ? Number(rows[0].epoch) : null;
    if (current === epoch) return;
  }
  const err = new FencedOut(epoch, current);
  fence.refused(err);
  throw err;
}
