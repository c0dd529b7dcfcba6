/** The pool's tunables and their defaults (docs/nntp.md, "Behaviour", says what each one does to a request). */
import { BACKGROUND_SHARE, PLAYER_LINGER_MS } from './lane-budget.js';
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../logging/logger.js';
import type { DecodeLimits } from './article-decoder.js';
import type { ProviderStateSink } from './provider-state.wire.js';
import type { Lane } from './request-queue.js';
import type { YencBackend } from './yenc-backend.js';

export interface PoolOptions {
  /** BODY commands in flight per connection (pipelining) at least; more when the measured link calls for it. */
  pipelineDepth?: number;
  /** BODY commands in flight per connection at most, however long the round trip (link-estimate.ts). */
  maxPipelineDepth?: number;
  /** Commands in flight per connection when placing a STAT (tiny answers: health checks and probes go deeper). */
  statPipelineDepth?: number;
  connectTimeoutMs?: number;
  stallTimeoutMs?: number;
  /**
   * Connections per enabled primary provider kept open (with keepalives) when no stream reads, so the first read
   * after a quiet spell finds one ready (warm-pool.ts). Default 0: connections only on demand.
   */
  idleWarmConnections?: number;
  /** A connection with no command at all for this long is closed (keepalives count as commands). */
  idleTimeoutMs?: number;
  /** Send DATE on a connection silent for this long, so providers that drop idle connections keep ours; 0 = off. */
  keepaliveMs?: number;
  /** Close a connection that carried no BODY/STAT for this long, keepalives notwithstanding. */
  maxIdleMs?: number;
  /** When every provider that could serve a request is cooling down, wait this long at most for one to come back. */
  coolingWaitMs?: number;
  /** Share of each provider's connections background work may hold while a player reads (lane-budget.ts). */
  backgroundShare?: number;
  /** How long after a player's last request it still counts as reading (lane-budget.ts). */
  playerLingerMs?: number;
  /** Consecutive failures that put a provider aside, and for how long. */
  breakerThreshold?: number;
  breakerCooldownMs?: number;
  /** Tries per request on retryable errors (timeouts, resets) before giving up. */
  maxAttempts?: number;
  limits?: DecodeLimits;
  backend?: YencBackend;
  logger?: Logger;
  /** Extra certificate authorities (PEM) trusted for TLS providers besides the system store. */
  tlsCa?: string | Buffer | Array<string | Buffer>;
  /** Time for breakers, backoffs and connection caps; the system clock unless a test passes a ManualClock. */
  clock?: Clock;
  /**
   * Where each change of a provider's state is announced, once per change (provider-liveness.ts): its breaker
   * opened, it refused our login, it answered again, its learned connection cap changed, it was added, enabled,
   * disabled or removed. The app passes its event bus.
   */
  events?: ProviderStateSink;
  /** Called once per BODY or STAT a provider answered (or failed), with its time: the metrics' article latency. */
  onCommandDone?: (done: CommandDone) => void;
}

/** One command on one provider, sent to settled: `missing` a 430, `damaged` a body failing its CRC or yEnc check. */
export interface CommandDone {
  providerId: string;
  command: 'body' | 'stat';
  ms: number;
  outcome: 'ok' | 'missing' | 'damaged' | 'error';
  /** The lane the request waited in (who fetched: request-queue.ts). */
  lane?: Lane;
  /** The read handle it was for, when it said (RequestOptions.stream). */
  stream?: number;
  /** Decoded bytes of an answered BODY; 0 otherwise. */
  bytes?: number;
  /** When the article was posted, when the request said (RequestOptions.posted). */
  posted?: number;
}

/**
 * The system clock, except that a request waiting for a provider keeps the process alive (systemClock's timers
 * are unref'd): the pool's default.
 */
export const poolClock: Clock = {
  now: () => Date.now(),
  schedule(fn, ms) {
    const timer = setTimeout(fn, Math.max(0, ms));
    return () => clearTimeout(timer);
  },
};

/** The numeric options with every default filled in. */
export type PoolTunables = Required<
  Omit<PoolOptions, 'limits' | 'logger' | 'backend' | 'tlsCa' | 'clock' | 'events' | 'onCommandDone'>
>;

export function resolveTunables(options: PoolOptions): PoolTunables {
  return {
    pipelineDepth: options.pipelineDepth ?? 2,
    // Never below the floor: a caller raising pipelineDepth alone should not end up with max < min.
    maxPipelineDepth: Math.max(options.pipelineDepth ?? 2, options.maxPipelineDepth ?? 8),
    statPipelineDepth: options.statPipelineDepth ?? 8,
    connectTimeoutMs: options.connectTimeoutMs ?? 15_000,
    stallTimeoutMs: options.stallTimeoutMs ?? 30_000,
    idleTimeoutMs: options.idleTimeoutMs ?? 60_000,
    keepaliveMs: options.keepaliveMs ?? 30_000,
    maxIdleMs: options.maxIdleMs ?? 300_000,
    coolingWaitMs: options.coolingWaitMs ?? 10_000,
    breakerThreshold: options.breakerThreshold ?? 5,
    breakerCooldownMs: options.breakerCooldownMs ?? 30_000,
    maxAttempts: options.maxAttempts ?? 3,
    idleWarmConnections: options.idleWarmConnections ?? 0,
    backgroundShare: options.backgroundShare ?? BACKGROUND_SHARE,
    playerLingerMs: options.playerLingerMs ?? PLAYER_LINGER_MS,
  };
}
