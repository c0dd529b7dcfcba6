/** Waiting requests in FIFO lanes, served stream first, then health, then import, then repair. */
import { PRIORITIES, type RequestPriority } from './types.js';

export class PriorityQueue<T extends { priority: RequestPriority }> {
  private readonly lanes = new Map<RequestPriority, T[]>(PRIORITIES.map((p) => [p, []]));

  get size(): number {
    let n = 0;
    for (const lane of this.lanes.values()) n += lane.length;
    return n;
  }

  push(item: T): void {
    this.lanes.get(item.priority)!.push(item);
  }

  /** Put a request back at the head of its lane (a retry keeps its place). */
  unshift(item: T): void {
    this.lanes.get(item.priority)!.unshift(item);
  }

  remove(item: T): boolean {
    const lane = this.lanes.get(item.priority)!;
    const at = lane.indexOf(item);
    if (at < 0) return false;
    lane.splice(at, 1);
    return true;
  }

  /**
   * Offers waiting requests in priority order to `place`, which answers 'taken' (remove it), 'skip' (leave it
   * waiting, e.g. its provider is full) or 'stop' (nothing more can be placed now). Bounded by `limit` looks.
   */
  drain(place: (item: T) => 'taken' | 'skip' | 'stop', limit = 10_000): void {
    let looked = 0;
    for (const p of PRIORITIES) {
      const lane = this.lanes.get(p)!;
      for (let i = 0; i < lane.length && looked < limit; looked++) {
        const verdict = place(lane[i]!);
        if (verdict === 'stop') return;
        if (verdict === 'taken') lane.splice(i, 1);
        else i++;
      }
    }
  }
}
