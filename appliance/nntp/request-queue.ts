/**
 * Waiting requests in six FIFO lanes, served in this order (docs/nntp.md, "Lanes"): what a player waits for now
 * (`play`: its reads, the first article of each urgent at the head), the player's read-ahead (`play-ahead`), a
 * scanner's reads (`scan`), then health checks, imports and PAR2 repairs (`repair`, docs/health.md "PAR2 repair"). Within the two player lanes, players take turns: the
 * stream with the fewest commands in flight and queued ahead goes first, so ten players share the link fairly
 * instead of the one that asked first taking it all.
 */
import type { ReaderKind, RequestPriority } from './types.js';

export const LANES = ['play', 'play-ahead', 'scan', 'health', 'import', 'repair'] as const;
export type Lane = (typeof LANES)[number];

/** The lanes a player's work waits in; the others are background (pool-lanes.ts budgets them). */
export const PLAYER_LANES: ReadonlySet<Lane> = new Set(['play', 'play-ahead']);

/** The lane of a request: its priority, and on the stream lane who reads and whether it is read-ahead. */
export function laneOf(priority: RequestPriority, tags: { reader?: ReaderKind; readAhead?: boolean }): Lane {
  if (priority !== 'stream') return priority;
  if (tags.reader === 'scanner') return 'scan';
  return tags.readAhead ? 'play-ahead' : 'play';
}

interface Queued {
  lane: Lane;
  stream?: number | undefined;
  urgent?: boolean;
}

export class PriorityQueue<T extends Queued> {
  private readonly lanes = new Map<Lane, T[]>(LANES.map((l) => [l, []]));

  /**
   * `inFlight(stream)`: commands of that stream on the wire now, for the players' turns (none given: plain FIFO).
   */
  constructor(private readonly inFlight?: (stream: number) => number) {}

  get size(): number {
    let n = 0;
    for (const lane of this.lanes.values()) n += lane.length;
    return n;
  }

  /** Requests waiting in `lane`. */
  waiting(lane: Lane): number {
    return this.lanes.get(lane)!.length;
  }

  push(item: T): void {
    this.lanes.get(item.lane)!.push(item);
  }

  /** Put a request back at the head of its lane (a retry keeps its place). */
  unshift(item: T): void {
    this.lanes.get(item.lane)!.unshift(item);
  }

  /**
   * The waiting read-ahead (or scan) request for `messageId` that a player now waits for: to the head of the
   * `play` lane, urgent. False when none waits (it is on the wire already, or was never asked).
   */
  promote(matches: (item: T) => boolean): boolean {
    for (const name of ['play-ahead', 'play'] as const) {
      const lane = this.lanes.get(name)!;
      const at = lane.findIndex(matches);
      if (at < 0) continue;
      const [item] = lane.splice(at, 1) as [T];
      item.lane = 'play';
      item.urgent = true;
      this.lanes.get('play')!.unshift(item);
      return true;
    }
    return false;
  }

  remove(item: T): boolean {
    const lane = this.lanes.get(item.lane)!;
    const at = lane.indexOf(item);
    if (at < 0) return false;
    lane.splice(at, 1);
    return true;
  }

  /**
   * Offers waiting requests in lane order to `place`, which answers 'taken' (remove it), 'skip' (leave it
   * waiting, e.g. its provider is full) or 'stop' (nothing more can be placed now). Bounded by `limit` looks.
   */
  drain(place: (item: T) => 'taken' | 'skip' | 'stop', limit = 10_000): void {
    let looked = 0;
    for (const name of LANES) {
      const lane = this.lanes.get(name)!;
      if (lane.length === 0) continue;
      if (!PLAYER_LANES.has(name) || !this.inFlight) {
        // FIFO, in place (the health and import lanes may hold thousands of STATs)
        for (let i = 0; i < lane.length && looked < limit; looked++) {
          const verdict = place(lane[i]!);
          if (verdict === 'stop') return;
          if (verdict === 'taken') lane.splice(i, 1);
          else i++;
        }
        if (looked >= limit) return;
        continue;
      }
      const taken = new Set<T>();
      let stop = false;
      for (const item of this.turns(lane)) {
        if (looked++ >= limit) break;
        const verdict = place(item);
        if (verdict === 'taken') taken.add(item);
        if (verdict === 'stop') {
          stop = true;
          break;
        }
      }
      if (taken.size > 0)
        this.lanes.set(
          name,
          this.lanes.get(name)!.filter((x) => !taken.has(x)),
        );
      if (stop || looked >= limit) return;
    }
  }

  /**
   * The players' turns: each request ranks by its stream's commands in flight plus its stream's requests queued
   * ahead of it (urgent ones first, then by rank, then FIFO), like fair queueing with one article per turn.
   */
  private turns(lane: T[]): T[] {
    const ahead = new Map<number, number>();
    const ranked = lane.map((item, at) => {
      if (item.urgent || item.stream === undefined) return { item, at, rank: item.urgent ? -1 : 0 };
      const before = ahead.get(item.stream) ?? 0;
      ahead.set(item.stream, before + 1);
      return { item, at, rank: this.inFlight!(item.stream) + before };
    });
    ranked.sort((a, b) => a.rank - b.rank || a.at - b.at);
    return ranked.map((r) => r.item);
  }
}
