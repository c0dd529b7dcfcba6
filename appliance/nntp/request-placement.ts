/**
 * Where a waiting request goes now (docs/nntp.md, "Limits", "Fallback", "Retries", "Routing"): which provider, in
 * list order within its tier (request-routing.ts) and without those that already failed it, and on which of its connections, or a new one.
 * Decides only; the pool runs the command and opens the connections.
 */
import type { PoolTunables } from './pool-options.js';
import type { PoolRequest } from './pool-request.js';
import type { PooledConnection, ProviderState } from './provider-state.js';
import { waitOrFail } from './request-failures.js';
import { blockAllowed, eligibleFor, spreadMissing, tierOf } from './request-routing.js';

type PlacementTunables = Pick<
  PoolTunables,
  'pipelineDepth' | 'maxPipelineDepth' | 'statPipelineDepth' | 'maxAttempts' | 'coolingWaitMs'
>;

export interface Placement {
  provider: ProviderState;
  /** A connection with room in its pipeline, or 'open': a new connection for this request. */
  slot: PooledConnection | 'open';
  /** The request is pipelined behind another command: open one more connection beside it for the next one. */
  openBeside: boolean;
}

/** BODYs in flight per connection for this provider: from its measured round trip and transfer rate. */
export const bodyDepth = (p: ProviderState, o: Pick<PoolTunables, 'pipelineDepth' | 'maxPipelineDepth'>): number =>
  p.link.pipelineDepth(o.pipelineDepth, o.maxPipelineDepth);

/**
 * A place for `r`; undefined = wait for a slot; `retryAt` = wait for a cooling provider until then; an error =
 * give up with it (request-failures.ts).
 */
export function placeRequest(
  r: PoolRequest,
  providers: readonly ProviderState[],
  now: number,
  o: PlacementTunables,
  /** Whether the lanes' budget lets `r` take this slot (lane-budget.ts); every slot when absent. */
  allows: (p: ProviderState, slot: PooledConnection | 'open') => boolean = () => true,
): Placement | { retryAt: number } | Error | undefined {
  spreadMissing(r, providers);
  const eligible = eligibleFor(r, providers, now);
  const block = blockAllowed(r, eligible, now);
  const candidates = eligible.filter(
    (p) => p.usable(now) && !r.missingOn.has(p.id) && (block || !p.config.block_account),
  );
  let fresh = candidates.filter((p) => !r.failedOn.has(p.id));
  // Every candidate failed it once: with tries left, start another round over all of them.
  if (fresh.length === 0 && candidates.length > 0 && r.attempts < o.maxAttempts) {
    r.failedOn.clear();
    fresh = candidates;
  }
  if (fresh.length === 0)
    return waitOrFail(r, block ? eligible : eligible.filter((p) => !p.config.block_account), now, o);
  r.coolingSince = undefined;
  const first = Math.min(...fresh.map((p) => tierOf(p, r, now)));
  for (const provider of fresh.filter((p) => tierOf(p, r, now) === first)) {
    const depth = r.kind === 'stat' ? Math.max(o.statPipelineDepth, bodyDepth(provider, o)) : bodyDepth(provider, o);
    const slot = findSlot(provider, depth, now, (s) => allows(provider, s));
    if (!slot) continue;
    // Pipelined behind another command: open one more connection beside it for the next request, rather than
    // make this one wait for a handshake (several round trips on a real provider).
    return { provider, slot, openBeside: slot !== 'open' && slot.conn.inflight > 0 };
  }
  return undefined;
}

/**
 * An idle connection; else, on a long link (a round trip longer than an article's transfer), the least loaded
 * one with room in its pipeline (it answers after the commands ahead of it, sooner than a new connection's
 * handshakes) and the choice opens another beside it; on a short link (loopback, or nothing measured yet) a new
 * connection first, as handshakes are cheap there and separate connections run in parallel on the server.
 */
function findSlot(
  p: ProviderState,
  depth: number,
  now: number,
  allows: (slot: PooledConnection | 'open') => boolean,
): PooledConnection | 'open' | undefined {
  // Held (the speed test has its connections): no new work on them and no new connection.
  if (p.held > 0) return undefined;
  let best: PooledConnection | undefined;
  for (const pc of p.connections) {
    if (pc.generation !== p.generation || pc.conn.isClosed || !allows(pc)) continue;
    const n = pc.conn.inflight;
    if (n === 0) return pc;
    if (n < depth && (!best || n < best.conn.inflight)) best = pc;
  }
  const room = p.connectionCount < p.connectionLimit(now) && allows('open');
  if (best && (!room || p.link.isLong)) return best;
  if (room) return 'open';
  return best;
}
