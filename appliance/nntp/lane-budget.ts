/**
 * Playback first (docs/nntp.md, "Lanes"): while a player reads, background work (a scanner's reads, health
 * checks, imports) may hold at most `backgroundShare` of each provider's connections (at least one), and a
 * player's command never queues behind background work on a connection. A player reads while any of its requests
 * waits or runs, and for `lingerMs` after its last one (a paced player asks again within a few hundred ms). With
 * no player, background work gets the whole pool. A scanner's read never pipelines behind another command, so a
 * player who presses play during a library scan finds a connection free within one article's transfer. Also counts each stream's commands in flight, for the players'
 * turns in request-queue.ts.
 */
import type { PooledConnection, ProviderState } from './provider-state.js';
import type { PoolRequest } from './pool-request.js';
import { PLAYER_LANES } from './request-queue.js';

/** Share of a provider's connections background work may hold while a player reads. */
export const BACKGROUND_SHARE = 0.25;
/** How long after a player's last request it still counts as reading. */
export const PLAYER_LINGER_MS = 2_000;

type Slot = PooledConnection | 'open';

const isPlayer = (r: Pick<PoolRequest, 'lane'>): boolean => PLAYER_LANES.has(r.lane);

export class LaneBudget {
  /** Player requests waiting or on the wire. */
  private players = 0;
  private playerSeenAt = -Infinity;
  /** Background commands on each connection. */
  private readonly onConn = new Map<PooledConnection, number>();
  /** Connections being opened for background requests, per provider. */
  private readonly opening = new Map<ProviderState, number>();
  private readonly streams = new Map<number, number>();

  constructor(
    private readonly share = BACKGROUND_SHARE,
    private readonly lingerMs = PLAYER_LINGER_MS,
  ) {}

  /** A request entered the pool (once per request; retries do not come here). */
  submitted(r: PoolRequest, now: number): void {
    if (!isPlayer(r)) return;
    this.players++;
    this.playerSeenAt = now;
  }

  /** A request settled (once per request). */
  settled(r: PoolRequest, now: number): void {
    if (!isPlayer(r)) return;
    this.players--;
    this.playerSeenAt = now;
  }

  /** Whether a player reads now (its requests wait or run, or it asked within lingerMs). */
  playerActive(now: number): boolean {
    return this.players > 0 || now - this.playerSeenAt < this.lingerMs;
  }

  /** When the last player stops counting as reading (undefined: one still has requests, or none read lately). */
  lingerEndsAt(now: number): number | undefined {
    if (this.players > 0 || !this.playerActive(now)) return undefined;
    return this.playerSeenAt + this.lingerMs;
  }

  /** Connections of `p` background work may hold while a player reads. */
  budget(p: ProviderState, now: number): number {
    return Math.max(1, Math.floor(p.connectionLimit(now) * this.share));
  }

  /** Connections of `p` holding (or opening for) background work now. */
  held(p: ProviderState): number {
    let n = this.opening.get(p) ?? 0;
    for (const pc of p.connections) if ((this.onConn.get(pc) ?? 0) > 0) n++;
    return n;
  }

  /**
   * Whether `r` may take `slot` of `p`: a player never a connection carrying background work; background work,
   * while a player reads, a new connection only below its budget and one it holds already only within it (work
   * it started before the player came drains, and no more follows it there).
   */
  allows(r: PoolRequest, p: ProviderState, slot: Slot, now: number): boolean {
    const busyWithBackground = slot !== 'open' && (this.onConn.get(slot) ?? 0) > 0;
    if (isPlayer(r)) return !busyWithBackground;
    // a scanner's read never pipelines: a player who comes waits for one article's transfer at most
    if (r.lane === 'scan' && slot !== 'open' && slot.conn.inflight > 0) return false;
    if (!this.playerActive(now)) return true;
    // over budget (it held more before the player came): no more work until it is back within it
    const held = this.held(p);
    return busyWithBackground ? held <= this.budget(p, now) : held < this.budget(p, now);
  }

  /** `r` was placed on `slot` (a new connection is counted as held while it opens). */
  placed(r: PoolRequest, p: ProviderState, slot: Slot): void {
    if (slot === 'open' && !isPlayer(r)) this.opening.set(p, (this.opening.get(p) ?? 0) + 1);
  }

  /** The connection opened for `r` settled (opened or failed). */
  openSettled(r: PoolRequest, p: ProviderState): void {
    if (isPlayer(r)) return;
    const n = (this.opening.get(p) ?? 1) - 1;
    if (n > 0) this.opening.set(p, n);
    else this.opening.delete(p);
  }

  /** `r`'s command went on the wire on `pc`. */
  started(r: PoolRequest, pc: PooledConnection): void {
    if (!isPlayer(r)) this.onConn.set(pc, (this.onConn.get(pc) ?? 0) + 1);
    if (r.stream !== undefined) this.streams.set(r.stream, (this.streams.get(r.stream) ?? 0) + 1);
  }

  /** `r`'s command on `pc` is done (answered or failed). */
  ended(r: PoolRequest, pc: PooledConnection): void {
    if (!isPlayer(r)) decrement(this.onConn, pc);
    if (r.stream !== undefined) decrement(this.streams, r.stream);
  }

  /** Commands of a stream on the wire now. */
  inFlight(stream: number): number {
    return this.streams.get(stream) ?? 0;
  }
}

function decrement<K>(m: Map<K, number>, k: K): void {
  const n = (m.get(k) ?? 1) - 1;
  if (n > 0) m.set(k, n);
  else m.delete(k);
}
