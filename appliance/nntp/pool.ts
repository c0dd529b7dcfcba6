/**
 * The provider pool: bounded connections per provider, pipelined commands, priority lanes, provider fallback
 * (430 -> next provider, backups last), a circuit breaker per provider, and live provider changes. This file holds
 * the public API and the pump, which offers waiting requests to request-placement.ts and carries out its
 * decisions; the rules themselves live beside it (docs/nntp.md, "Pieces").
 */
import { systemClock, type Clock } from '../clock/clock.js';
import { AbortedError, ArticleMissingError, NntpError } from './errors.js';
import { Keepalive } from './keepalive.js';
import { LaneBudget } from './lane-budget.js';
import { combineLinks, type LinkFacts } from './link-estimate.js';
import { PoolStats } from './pool-metrics.js';
import { poolClock, resolveTunables, type CommandDone, type PoolOptions, type PoolTunables } from './pool-options.js';
import {
  createRequest,
  invalidMessageId,
  normalizeMessageId,
  type PoolRequest,
  type RequestOptions,
} from './pool-request.js';
import type { PoolMetrics } from './pool.wire.js';
import type { CapChange } from './provider-capacity.js';
import { openPooledConnection, retireIfIdle, type ConnectionSettings } from './provider-connections.js';
import { ProviderLiveness } from './provider-liveness.js';
import { reasonOf } from './provider-reason.js';
import { ProviderRoster } from './provider-roster.js';
import type { PooledConnection, ProviderState } from './provider-state.js';
import { recordFailure } from './request-failures.js';
import { bodyDepth, placeRequest } from './request-placement.js';
import { PriorityQueue } from './request-queue.js';
import { statBatch, type StatBatchOptions } from './stat-batch.js';
import type { DecodedArticle, ProviderConfig } from './types.js';
import { WarmPool, warmBackoffMs } from './warm-pool.js';
import { yencBackend } from './yenc-backend.js';

export type { LinkFacts } from './link-estimate.js';
export type { CommandDone, PoolOptions } from './pool-options.js';
export type { RequestOptions } from './pool-request.js';
export type { StatBatchOptions } from './stat-batch.js';
export type { ProviderStateEvent, ProviderStateSink } from './provider-state.wire.js';

/** A provider's connections held away from the pool (NntpPool.holdConnections). */
export interface ConnectionHold {
  /** The pool's connections to the provider still open, opening or closing. */
  connections(): number;
  /** Gives the provider back to the pool (once; later calls do nothing). */
  release(): void;
}

export class NntpPool {
  private readonly roster = new ProviderRoster();
  /** Playback first: the background budget and the players' turns (lane-budget.ts). */
  private readonly lanes: LaneBudget;
  private readonly queue: PriorityQueue<PoolRequest>;
  private readonly stats = new PoolStats();
  private readonly o: PoolTunables;
  private readonly connectionSettings: ConnectionSettings;
  private closed = false;
  private readonly warmPool: WarmPool;
  private readonly keepalive: Keepalive;
  /** BODYs sent and not answered yet, by message id (onWire, leftBehind). */
  private readonly bodiesOnWire = new Map<string, Set<PoolRequest>>();
  /** One timer that re-runs pump() when the first cooling provider comes back. */
  private wake: { at: number; cancel: () => void } | undefined;
  /** Time for breakers, backoffs and connection caps (a ManualClock in tests). */
  private readonly clock: Clock;
  /** Which providers are up, the probes of those down, and the announcement of each change. */
  private readonly liveness: ProviderLiveness;

  constructor(
    providers: ProviderConfig[],
    private readonly options: PoolOptions = {},
  ) {
    this.o = resolveTunables(options);
    this.clock = options.clock ?? poolClock;
    this.lanes = new LaneBudget(this.o.backgroundShare, this.o.playerLingerMs);
    this.queue = new PriorityQueue<PoolRequest>((stream) => this.lanes.inFlight(stream));
    const { connectTimeoutMs, stallTimeoutMs, idleTimeoutMs } = this.o;
    const { tlsCa, limits, backend } = options;
    this.connectionSettings = { connectTimeoutMs, stallTimeoutMs, idleTimeoutMs, tlsCa, limits, backend };
    yencBackend(options.logger);
    this.warmPool = new WarmPool(this.o.maxIdleMs, this.o.idleWarmConnections);
    this.liveness = new ProviderLiveness({
      sink: options.events,
      // A probe of a provider that is down never keeps the process alive (systemClock's timers are unref'd).
      clock: options.clock ?? systemClock,
      breakerCooldownMs: this.o.breakerCooldownMs,
      probe: (p) => this.probe(p),
      logger: options.logger,
    });
    this.roster.update(providers);
    for (const p of this.roster.active) this.liveness.know(p);
    this.pump();
    this.keepalive = new Keepalive(
      () => this.roster.all(),
      this.o,
      (p) => this.warmPool.floor(p),
      () => this.closed || this.warm(this.clock.now()),
    );
  }

  /** Fetch and decode one article, trying providers in priority order. */
  body(messageId: string, opts: RequestOptions = {}): Promise<DecodedArticle> {
    return this.submit<DecodedArticle>('body', messageId, opts);
  }

  /**
   * A player now waits for an article it asked for as read-ahead: if the request still waits, it goes to the head
   * of the player lane (docs/nntp.md, "Lanes"). False when it is not waiting (on the wire, or unknown).
   */
  promote(messageId: string): boolean {
    const id = normalizeMessageId(messageId);
    if (!id || !this.queue.promote((r) => r.messageId === id && !r.settled)) return false;
    this.pump();
    return true;
  }

  /**
   * Whether a BODY of the article is on the wire now (sent to a provider, not answered yet): a reader that no longer
   * wants it leaves it to complete, since its bytes come anyway (vfs/article-fetcher.ts).
   */
  onWire(messageId: string): boolean {
    const id = normalizeMessageId(messageId);
    return id !== undefined && (this.bodiesOnWire.get(id)?.size ?? 0) > 0;
  }

  /**
   * The BODYs of the article on the wire now are left to finish with nobody waiting (`left` true: their bytes come
   * anyway, vfs/article-fetcher.ts), or someone waits for them again (false). One left behind that fails is not
   * tried on another provider: nobody wants it enough to pay for a second fetch.
   */
  leftBehind(messageId: string, left: boolean): void {
    const id = normalizeMessageId(messageId);
    for (const r of (id && this.bodiesOnWire.get(id)) || []) r.leftBehind = left;
  }

  /** Whether any provider has the article. */
  async stat(messageId: string, opts: RequestOptions = {}): Promise<boolean> {
    try {
      return await this.submit<true>('stat', messageId, opts);
    } catch (err) {
      if (err instanceof ArticleMissingError) return false;
      throw err;
    }
  }

  /** The measured link of the primary providers (undefined until one answered a BODY). */
  linkFacts(): LinkFacts | undefined {
    const now = this.clock.now();
    const live = this.roster.active.filter((p) => p.usable(now) && !p.config.is_backup_provider);
    return combineLinks(live, (p) => p.connectionLimit(now) * bodyDepth(p, this.o));
  }

  /** Commands of one read handle on the wire now (RequestOptions.stream): the connections it holds, pipelining aside. */
  streamCommands(stream: number): number {
    return this.lanes.inFlight(stream);
  }

  metrics(): PoolMetrics {
    return this.stats.snapshot(this.roster.all(), this.queue.size, this.clock.now());
  }

  /** A player's reads waiting for a connection now (the `play` lane): health checks hold back while any do. */
  playerWaiting(): number {
    return this.queue.waiting('play');
  }

  /** STAT of many articles under one promise, each answer as exact as stat()'s: stat-batch.ts. */
  statBatch(messageIds: readonly string[], opts: StatBatchOptions = {}): Promise<Array<boolean | NntpError>> {
    if (this.closed) return Promise.reject(new AbortedError('Pool closed'));
    return statBatch(messageIds, opts, this.queue, () => this.pump());
  }

  /**
   * Apply a new provider list: new connections use new settings, removed providers drain, nothing is cut. Each
   * provider added, removed, enabled or disabled is announced once (provider-liveness.ts).
   */
  updateProviders(list: ProviderConfig[]): void {
    const generations = new Map(this.roster.active.map((p) => [p.id, p.generation]));
    const wasDraining = new Set(this.roster.draining);
    this.roster.update(list);
    for (const p of this.roster.all()) {
      if (!wasDraining.has(p)) this.liveness.configured(p, generations.get(p.id) !== p.generation);
      if (p.removed) this.liveness.close(p);
      this.retireIdle(p);
    }
    this.pump();
  }

  /** A manual re-probe of a provider that is down (docs/nntp.md, "Provider states"); false when it is not down. */
  reprobe(id: string): boolean {
    const p = this.roster.active.find((x) => x.id === id);
    return p !== undefined && this.liveness.probeNow(p);
  }

  /**
   * Pauses a provider whose quota is spent, or resumes it (`until` undefined), announced once (docs/nntp.md "Quotas
   * and expiry"). Paused, it takes no new work (commands on the wire finish); requests go to the other providers,
   * and one that has nowhere else to go fails with the pause, never with a verdict. `until`: when the quota's period
   * resets (shown; the quota meter resumes it). False when no such provider is in the pool.
   */
  pauseForQuota(id: string, until: number | null | undefined): boolean {
    const p = this.roster.active.find((x) => x.id === id);
    if (!p) return false;
    const was = p.paused !== undefined;
    p.paused = until === undefined ? undefined : { until };
    if (was !== (p.paused !== undefined)) {
      this.options.logger?.[p.paused ? 'warn' : 'info'](
        p.paused ? 'provider paused: quota spent' : 'provider resumed',
        {
          provider: id,
        },
      );
      this.liveness.announce(p, p.paused ? 'quota_spent' : 'quota_reset');
    }
    this.pump();
    return true;
  }

  /**
   * Takes a provider's connections away from the pool for someone who opens their own (the provider speed test),
   * so that together they stay within the account's connection limit: until released the pool opens no connection
   * to it, gives its open ones no new work and closes each once its commands are done; work for it goes to the
   * other providers of its tier, or waits. `connections()` counts the pool's own still open, opening or closing
   * (the account counts them until their socket closes). Undefined when no such provider is in the pool.
   */
  holdConnections(id: string): ConnectionHold | undefined {
    const p = this.roster.active.find((x) => x.id === id);
    if (!p) return undefined;
    p.held++;
    this.retireIdle(p);
    let released = false;
    return {
      connections: () => p.connectionCount + p.closing,
      release: () => {
        if (released) return;
        released = true;
        p.held--;
        this.pump();
      },
    };
  }

  /** Stop: waiting requests fail with AbortedError, connections QUIT. */
  async close(): Promise<void> {
    this.closed = true;
    this.keepalive.stop();
    this.liveness.stop();
    for (const p of this.roster.all()) this.liveness.close(p);
    this.wake?.cancel();
    this.queue.drain((r) => {
      r.finish(new AbortedError('Pool closed'));
      return 'taken';
    });
    const all = this.roster.all().flatMap((p) => [...p.connections]);
    await Promise.all(all.map((pc) => pc.conn.quit()));
  }

  private submit<T>(kind: 'body' | 'stat', rawId: string, opts: RequestOptions): Promise<T> {
    const messageId = normalizeMessageId(rawId);
    if (!messageId) return Promise.reject(invalidMessageId(rawId));
    if (this.closed) return Promise.reject(new AbortedError('Pool closed'));
    const signal = opts.signal;
    if (signal?.aborted) return Promise.reject(new AbortedError());
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        this.queue.remove(req);
        req.finish(new AbortedError());
        this.pump(); // a player's last request gone: background work may have its connections back
      };
      const req = createRequest(
        kind,
        messageId,
        opts.priority ?? 'import',
        opts.into,
        performance.now(),
        (err, value) => {
          signal?.removeEventListener('abort', onAbort);
          this.lanes.settled(req, this.clock.now());
          if (err) reject(err);
          else resolve(value as T);
        },
        opts,
      );
      signal?.addEventListener('abort', onAbort, { once: true });
      this.lanes.submitted(req, this.clock.now());
      if (req.priority === 'stream') this.warmPool.streamRequested();
      if (opts.urgent) this.queue.unshift(req);
      else this.queue.push(req);
      this.pump();
    });
  }

  private pump(): void {
    if (this.closed) return;
    const now = this.clock.now();
    this.queue.drain((r) => {
      if (r.settled) return 'taken';
      const place = placeRequest(r, this.roster.active, now, this.o, (p, slot) => this.lanes.allows(r, p, slot, now));
      if (!place) {
        // held back for a player only while it lingers: look again when it stops counting as reading
        const until = this.lanes.lingerEndsAt(now);
        if (until !== undefined) this.wakeAt(until);
        return 'skip';
      }
      if (place instanceof Error) {
        r.finish(place);
        return 'taken';
      }
      if ('retryAt' in place) {
        this.wakeAt(place.retryAt);
        return 'skip';
      }
      if (place.openBeside) this.openAhead(place.provider, now);
      this.stats.recordWait(performance.now() - r.enqueuedAt);
      this.lanes.placed(r, place.provider, place.slot);
      if (place.slot === 'open') this.openAndRun(place.provider, r);
      else this.run(r, place.provider, place.slot);
      return 'taken';
    });
    this.warm(now);
  }

  /** Tops every provider up to its warm floor (also refills after a connection dropped): warm-pool.ts. */
  private warm(now: number): void {
    for (const p of this.roster.active) {
      const n = this.warmPool.toOpen(p, p.usable(now));
      for (let i = 0; i < n; i++) this.openAhead(p, now);
    }
  }

  /** Opens a connection no request waits for; a failure only delays the next such attempt (no breaker count). */
  private openAhead(p: ProviderState, now: number): void {
    if (this.closed || p.held > 0 || p.connectionCount >= p.connectionLimit(now) || now < p.warmBackoffUntil) return;
    p.openingAhead++;
    this.openConnection(p).then(
      (pc) => {
        p.openingAhead--;
        p.warmFailures = 0;
        if (this.closed) void pc.conn.quit();
        else retireIfIdle(p, pc);
        this.pump();
      },
      (err: Error) => {
        p.openingAhead--;
        // Over the account's cap: the cap now stops further attempts (provider-capacity.ts), no backoff needed.
        if (err instanceof NntpError && err.kind === 'provider_capacity') return this.pump();
        p.warmFailures++;
        const permanent = err instanceof NntpError && (err.kind === 'auth' || err.kind === 'tls');
        p.warmBackoffUntil =
          this.clock.now() + warmBackoffMs(p.warmFailures, Math.min(this.o.breakerCooldownMs, 5_000), permanent);
        this.options.logger?.debug('connection opened ahead failed', { provider: p.id, error: err.message });
        this.pump();
      },
    );
  }

  private wakeAt(at: number): void {
    if (this.wake && this.wake.at <= at) return;
    this.wake?.cancel();
    const cancel = this.clock.schedule(
      () => {
        this.wake = undefined;
        this.pump();
      },
      Math.max(0, at - this.clock.now()) + 1,
    );
    this.wake = { at, cancel };
  }

  /** Opens a connection of `p`; what each attempt's outcome says about the account's cap is learned here. */
  private openConnection(p: ProviderState): Promise<PooledConnection> {
    const opened = openPooledConnection(p, this.connectionSettings, this.stats, () => {
      this.roster.forgetIfDrained(p);
      this.pump();
    });
    const settle = () => {
      const max = p.config.max_connections;
      const change = p.capacity.settled(p.connections.size, p.opening, max, this.clock.now());
      if (change) this.capChanged(p, change);
      return change;
    };
    return opened.then(
      (pc) => {
        // It answered: back if it was down, in one announcement with the cap this connection raised, if it did.
        const back = this.liveness.answered(p, this.clock.now());
        const change = settle();
        if (back || change) this.liveness.announce(p, back ? 'answered' : 'cap_changed');
        return pc;
      },
      (err: unknown) => {
        if (!(err instanceof AbortedError)) p.lastReason = reasonOf(err);
        if (err instanceof NntpError && err.kind === 'provider_capacity') p.capacity.refused();
        if (err instanceof NntpError && err.kind === 'auth') {
          p.lastError = err.message;
          this.liveness.down(p, 'auth_failed');
        }
        const change = settle();
        if (change?.allowed === 0) this.liveness.down(p, 'cap_changed');
        else if (change) this.liveness.announce(p, 'cap_changed');
        throw err;
      },
    );
  }

  /** A connection no request waits for, to learn whether a provider that is down answers again. */
  private probe(p: ProviderState): Promise<unknown> {
    p.openingAhead++;
    return this.openConnection(p).then(
      (pc) => {
        p.openingAhead--;
        if (this.closed) void pc.conn.quit();
        else retireIfIdle(p, pc);
        this.pump();
      },
      (err: unknown) => {
        p.openingAhead--;
        this.pump();
        throw err;
      },
    );
  }

  /** Once per change of a provider's learned cap: the log line (the announcement is the caller's). */
  private capChanged(p: ProviderState, change: CapChange): void {
    const max = p.config.max_connections;
    const fields = { provider: p.id, allowed: change.allowed ?? max, max_connections: max };
    if (change.allowed === undefined)
      this.options.logger?.info('provider allows every configured connection again', fields);
    else
      this.options.logger?.warn('provider allows fewer connections than configured', {
        ...fields,
        previous: change.previous ?? max,
        next_probe_in_ms: Math.max(0, (change.probeAt ?? 0) - this.clock.now()),
      });
  }

  private openAndRun(p: ProviderState, r: PoolRequest): void {
    this.openConnection(p).then(
      (pc) => {
        this.lanes.openSettled(r, p);
        if (this.closed) void pc.conn.quit();
        else if (r.settled) retireIfIdle(p, pc);
        else this.run(r, p, pc);
        this.pump();
      },
      (err) => {
        this.lanes.openSettled(r, p);
        if (!(err instanceof NntpError && err.kind === 'provider_capacity')) this.stats.recordCommand(p);
        this.onFailure(r, p, err);
        this.pump();
      },
    );
  }

  private run(r: PoolRequest, p: ProviderState, pc: PooledConnection): void {
    this.stats.recordCommand(p);
    const sentAt = (pc.lastWorkAt = performance.now());
    const isBody = r.kind === 'body';
    this.lanes.started(r, pc);
    if (isBody) {
      p.link.bodyStarted(pc.lastWorkAt);
      const onWire = this.bodiesOnWire.get(r.messageId);
      if (onWire) onWire.add(r);
      else this.bodiesOnWire.set(r.messageId, new Set([r]));
    }
    // off the wire before anyone hears of the answer (onWire)
    const answered = () => {
      const onWire = this.bodiesOnWire.get(r.messageId);
      if (onWire?.delete(r) && onWire.size === 0) this.bodiesOnWire.delete(r.messageId);
    };
    const op: Promise<unknown> = isBody
      ? pc.conn
          .body(r.messageId, r.into)
          .then((part) => ({ ...part, messageId: r.messageId, providerId: p.id }))
          .finally(answered)
      : pc.conn.stat(r.messageId);
    op.then(
      (value) => {
        p.recordSuccess();
        this.answeredOn(p, pc);
        this.commandDone(p, r, 'ok', sentAt, isBody ? (value as { data: Uint8Array }).data.byteLength : 0);
        r.finish(undefined, value);
      },
      (err) => {
        const outcome = commandOutcome(err);
        this.commandDone(p, r, outcome, sentAt);
        // A 430 or a damaged copy is an answer too: the provider is up.
        if (outcome !== 'error') this.answeredOn(p, pc);
        this.onFailure(r, p, err);
      },
    ).finally(() => {
      this.lanes.ended(r, pc);
      if (isBody) p.link.bodyEnded(performance.now());
      retireIfIdle(p, pc);
      this.pump();
    });
  }

  /** A command answered on `pc`: the provider is back if it was down and `pc` opened since (provider-liveness.ts). */
  private answeredOn(p: ProviderState, pc: PooledConnection): void {
    if (pc.downs === p.downs && this.liveness.answered(p, this.clock.now())) this.liveness.announce(p, 'answered');
  }

  private commandDone(
    p: ProviderState,
    r: PoolRequest,
    outcome: CommandDone['outcome'],
    sentAt: number,
    bytes = 0,
  ): void {
    const done = this.options.onCommandDone;
    if (!done) return;
    const ms = performance.now() - sentAt;
    const stream = r.stream === undefined ? {} : { stream: r.stream };
    const posted = r.postedAt === undefined ? {} : { posted: r.postedAt };
    done({ providerId: p.id, command: r.kind, ms, outcome, lane: r.lane, bytes, ...stream, ...posted });
  }

  private onFailure(r: PoolRequest, p: ProviderState, raw: unknown): void {
    const tripped = recordFailure(r, p, raw, this.stats, this.o, this.options.logger, this.clock.now());
    if (tripped)
      this.liveness.down(p, raw instanceof NntpError && raw.kind === 'auth' ? 'auth_failed' : 'breaker_opened');
    if (r.settled) return;
    // A request whose connection failed as the pool closed would wait in a queue nobody drains any more.
    if (this.closed) return r.finish(new AbortedError('Pool closed'));
    // Nobody waits for it any more (leftBehind): no second fetch, and no answer that reads as evidence (a 430 from
    // one provider is not "missing"): it ends as cancelled.
    if (r.leftBehind) return r.finish(new AbortedError('Nobody waits for it'));
    r.enqueuedAt = performance.now();
    this.queue.unshift(r);
  }

  private retireIdle(p: ProviderState): void {
    for (const pc of [...p.connections]) retireIfIdle(p, pc);
    this.roster.forgetIfDrained(p);
  }
}

/** What a failed command says about the article: a 430, a damaged copy, or nothing (an outage). */
function commandOutcome(err: unknown): CommandDone['outcome'] {
  if (err instanceof ArticleMissingError) return 'missing';
  if (err instanceof NntpError && err.kind === 'corrupt_article') return 'damaged';
  return 'error';
}
