import { setTimeout as delay } from 'node:timers/promises';
import { ArticleMissingError, NntpConnection, type ProviderConfig } from '../nntp/index.js';
import { normalizeMessageId } from '../nntp/pool-request.js';
import type { SpeedTestStep } from './diagnostics.wire.js';

/** The connection counts tried, in order, up to the test's maximum (which is always tried last). */
const RAMP = [1, 2, 3, 4, 6, 8, 10, 12, 16, 20, 24, 32, 40, 48, 64];
/** A step that adds less than this over the best so far did not grow. */
const GROWTH = 1.1;
/** The suggestion: the fewest connections within this share of the best throughput measured. */
const KNEE_SHARE = 0.9;
/** BODYs in flight per connection, so a round trip does not idle the link between articles. */
const DEPTH = 2;

export interface SpeedTestRun {
  provider: ProviderConfig;
  /** Articles to read (library articles, read again and again); missing ones are dropped. */
  messageIds: string[];
  /**
   * The most connections to the provider at once, the test's own and `othersConnected`'s together (the account's
   * limit as the operator states it: the provider's max_connections unless asked otherwise).
   */
  maxConnections: number;
  /**
   * Connections to the provider not the test's that are open now (the pool's, closing while it lends them:
   * NntpPool.holdConnections); the test opens a connection only while its own and these stay within the maximum.
   */
  othersConnected?: () => number;
  /** Each step: this long to let new connections get going, then this long measured. */
  warmupMs: number;
  measureMs: number;
  /** The whole test stops (with what it measured) once this long has passed. */
  maxMs: number;
  /** True while a player reads: the test stops at once and leaves the connections to it. */
  playersReading: () => boolean;
  tlsCa?: string;
  onStep?: (step: SpeedTestStep) => void;
  signal?: AbortSignal;
}

export interface SpeedTestResult {
  steps: SpeedTestStep[];
  suggested: number | null;
  /** Why it ended before throughput stopped growing or the maximum was tried; null when it ran out. */
  stoppedBecause: string | null;
}

/** The ramp: 1, 2, 3, 4, 6, ... connections, each count measured, until throughput stops growing. */
export function rampOf(max: number): number[] {
  const steps = RAMP.filter((n) => n < max);
  return [...steps, max];
}

/** The fewest connections that reached KNEE_SHARE of the best throughput measured. */
export function kneeOf(steps: readonly SpeedTestStep[]): number | null {
  const best = Math.max(0, ...steps.map((s) => s.mb_per_s));
  if (best === 0) return null;
  return steps.find((s) => s.mb_per_s >= best * KNEE_SHARE)!.connections;
}

/** Whether the last two steps added less than GROWTH over the best before them: the knee is behind us. */
function stoppedGrowing(steps: readonly SpeedTestStep[]): boolean {
  if (steps.length < 3) return false;
  const before = Math.max(...steps.slice(0, -2).map((s) => s.mb_per_s));
  return steps.slice(-2).every((s) => s.mb_per_s < before * GROWTH);
}

/**
 * Measures one provider: opens connections of its own (a player's reads never wait behind them: the test stops
 * when one starts), never more than the maximum together with `othersConnected`, reads real articles with BODY,
 * and counts the bytes that arrive in each step's window. Its connections are closed (QUIT) before it returns.
 */
export async function runSpeedTest(run: SpeedTestRun): Promise<SpeedTestResult> {
  const reader = new ArticleReader(run);
  const steps: SpeedTestStep[] = [];
  let stoppedBecause: string | null = null;
  try {
    for (const count of rampOf(run.maxConnections)) {
      stoppedBecause = await reader.grow(count);
      if (stoppedBecause) break;
      const step = await reader.measure(count);
      if (typeof step === 'string') {
        stoppedBecause = step;
        break;
      }
      steps.push(step);
      run.onStep?.(step);
      if (stoppedGrowing(steps)) break;
    }
  } finally {
    await reader.close();
  }
  return { steps, suggested: kneeOf(steps), stoppedBecause };
}

/** The test's connections, each keeping DEPTH BODYs in flight over the article list. */
class ArticleReader {
  private readonly conns: NntpConnection[] = [];
  private readonly ids: string[];
  private next = 0;
  private counting = false;
  private bytes = 0;
  private articles = 0;
  private failure: string | null = null;
  private closed = false;
  private readonly started = performance.now();

  constructor(private readonly run: SpeedTestRun) {
    this.ids = run.messageIds.map(normalizeMessageId).filter((id): id is string => id !== undefined);
  }

  /**
   * Opens connections up to `count`, each once there is room beside the others' (the pool's closing ones); a
   * reason to stop when the provider refuses one, a player reads, or the time is up.
   */
  async grow(count: number): Promise<string | null> {
    const p = this.run.provider;
    while (this.conns.length < count) {
      if (this.run.playersReading()) return 'a player started reading; the test left the connections to it';
      const noRoom = await this.roomForOneMore();
      if (noRoom) return noRoom;
      try {
        const conn = await NntpConnection.open({
          host: p.host,
          port: p.port,
          tls: p.tls,
          insecureTls: p.insecure_tls,
          tlsCa: [this.run.tlsCa, p.ca].filter((c): c is string => !!c),
          username: p.username,
          password: p.password,
          onBytes: (n) => {
            if (this.counting) this.bytes += n;
          },
        });
        this.conns.push(conn);
        for (let i = 0; i < DEPTH; i++) void this.loop(conn);
      } catch (err) {
        return `the provider refused connection ${this.conns.length + 1}: ${(err as Error).message}`;
      }
    }
    return null;
  }

  /** Waits until one more connection stays within the maximum; a reason to stop instead. */
  private async roomForOneMore(): Promise<string | null> {
    while (this.conns.length + (this.run.othersConnected?.() ?? 0) >= this.run.maxConnections) {
      if (performance.now() - this.started >= this.run.maxMs)
        return `the test reached its ${this.run.maxMs / 1000} s cap`;
      const stop = await this.wait(100);
      if (stop) return stop;
    }
    return null;
  }

  /** Lets the new connections settle, then counts the bytes of one window; a reason to stop instead. */
  async measure(count: number): Promise<SpeedTestStep | string> {
    const left = this.run.maxMs - (performance.now() - this.started);
    if (left < this.run.warmupMs + this.run.measureMs) return `the test reached its ${this.run.maxMs / 1000} s cap`;
    await this.wait(this.run.warmupMs);
    this.bytes = 0;
    this.articles = 0;
    this.counting = true;
    const from = performance.now();
    const interrupted = await this.wait(this.run.measureMs);
    this.counting = false;
    if (interrupted) return interrupted;
    const seconds = (performance.now() - from) / 1000;
    return { connections: count, mb_per_s: round2(this.bytes / seconds / 1e6), articles: this.articles };
  }

  /** Waits `ms` in short slices, checking for players, failures and aborts; their reason, or null. */
  private async wait(ms: number): Promise<string | null> {
    const end = performance.now() + ms;
    while (performance.now() < end) {
      await delay(Math.min(100, end - performance.now()));
      if (this.failure) return this.failure;
      if (this.run.signal?.aborted) return 'stopped on request';
      if (this.run.playersReading()) return 'a player started reading; the test left the connections to it';
    }
    return null;
  }

  private async loop(conn: NntpConnection): Promise<void> {
    while (!this.closed && !conn.isClosed && !this.failure) {
      if (this.ids.length === 0) {
        this.failure = 'none of the sample articles are on this provider';
        return;
      }
      const id = this.ids[this.next++ % this.ids.length]!;
      try {
        await conn.body(id);
        if (this.counting) this.articles++;
      } catch (err) {
        if (err instanceof ArticleMissingError) {
          const at = this.ids.indexOf(id);
          if (at >= 0) this.ids.splice(at, 1);
        } else if (!this.closed) this.failure = `reading failed: ${(err as Error).message}`;
      }
    }
  }

  /**
   * Closes every connection with QUIT (after the BODYs already sent: at most DEPTH each), so the provider has
   * counted them closed before the pool opens its own again.
   */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.conns.map((c) => c.quit()));
  }
}

const round2 = (n: number) => Math.round(n * 100) / 100;
