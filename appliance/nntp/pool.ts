/**
 * The provider pool: bounded connections per provider, pipelined commands, priority lanes, provider fallback
 * (430 -> next provider, backups last), a circuit breaker per provider, and live provider changes.
 */
import { NntpConnection } from './connection.js';
import { AbortedError, ArticleMissingError, type NntpError } from './errors.js';
import { PoolStats } from './pool-metrics.js';
import type { PoolMetrics } from './pool.wire.js';
export type { LinkFacts } from './link-estimate.js';
import { ProviderState, type PooledConnection } from './provider-state.js';
import { combineLinks, type LinkFacts } from './link-estimate.js';
import { Keepalive } from './keepalive.js';
import { WarmPool } from './warm-pool.js';
import { PriorityQueue } from './request-queue.js';
import type { DecodedArticle, ProviderConfig } from './types.js';
import { yencBackend } from './yenc-backend.js';
import { resolveTunables, type PoolOptions, type PoolTunables } from './pool-options.js';
export type { PoolOptions } from './pool-options.js';
import {
  createRequest,
  invalidMessageId,
  normalizeMessageId,
  type PoolRequest,
  type RequestOptions,
} from './pool-request.js';
export type { RequestOptions } from './pool-request.js';
import { statBatch, type StatBatchOptions } from './stat-batch.js';
import { recordFailure } from './request-failures.js';
import { bodyDepth, placeRequest } from './request-placement.js';

export class NntpPool {
  private providers: ProviderState[] = [];
  private readonly draining = new Set<ProviderState>();
  private readonly queue = new PriorityQueue<PoolRequest>();
  private readonly stats = new PoolStats();
  private readonly o: PoolTunables;
  private closed = false;
  private readonly warmPool: WarmPool;
  private readonly keepalive: Keepalive;
  /** One timer that re-runs pump() when the first cooling provider comes back. */
  private wake: { at: number; timer: NodeJS.Timeout } | undefined;

  constructor(
    providers: ProviderConfig[],
    private readonly options: PoolOptions = {},
  ) {
    this.o = resolveTunables(options);
    yencBackend(options.logger);
    this.warmPool = new WarmPool(this.o.maxIdleMs);
    this.updateProviders(providers);
    this.keepalive = new Keepalive(
      () => this.allProviders(),
      this.o,
      (p) => this.warmPool.floor(p),
    );
  }

  private allProviders(): ProviderState[] {
    return [...this.providers, ...this.draining];
  }

  /** Fetch and decode one article, trying providers in priority order. */
  body(messageId: string, opts: RequestOptions = {}): Promise<DecodedArticle> {
    return this.submit<DecodedArticle>('body', messageId, opts);
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
    const now = Date.now();
    const live = this.providers.filter((p) => p.usable(now) && !p.config.is_backup_provider);
    return combineLinks(live, (p) => p.config.max_connections * bodyDepth(p, this.o));
  }

  metrics(): PoolMetrics {
    return this.stats.snapshot([...this.providers, ...this.draining], this.queue.size);
  }

  /** STAT of many articles under one promise, each answer as exact as stat()'s: stat-batch.ts. */
  statBatch(messageIds: readonly string[], opts: StatBatchOptions = {}): Promise<Array<boolean | NntpError>> {
    if (this.closed) return Promise.reject(new AbortedError('Pool closed'));
    return statBatch(messageIds, opts, this.queue, () => this.pump());
  }

  /** Apply a new provider list: new connections use new settings, removed providers drain, nothing is cut. */
  updateProviders(list: ProviderConfig[]): void {
    const byId = new Map(this.providers.map((p) => [p.id, p]));
    const next: ProviderState[] = [];
    for (const cfg of list) {
      let st = byId.get(cfg.id);
      byId.delete(cfg.id);
      if (!st) st = new ProviderState({ ...cfg });
      else {
        if (ProviderState.connectionKey(st.config) !== ProviderState.connectionKey(cfg)) {
          st.generation++;
          st.tlsSession = undefined;
          st.warmBackoffUntil = 0;
        }
        st.config = { ...cfg };
      }
      next.push(st);
    }
    for (const gone of byId.values()) {
      gone.removed = true;
      this.draining.add(gone);
    }
    this.providers = next;
    for (const p of [...next, ...this.draining]) this.retireIdle(p);
    this.pump();
  }

  /** Stop: waiting requests fail with AbortedError, connections QUIT. */
  async close(): Promise<void> {
    this.closed = true;
    this.keepalive.stop();
    if (this.wake) clearTimeout(this.wake.timer);
    this.queue.drain((r) => {
      r.finish(new AbortedError('Pool closed'));
      return 'taken';
    });
    const all = [...this.providers, ...this.draining].flatMap((p) => [...p.connections]);
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
      };
      const req = createRequest(
        kind,
        messageId,
        opts.priority ?? 'import',
        opts.into,
        performance.now(),
        (err, value) => {
          signal?.removeEventListener('abort', onAbort);
          if (err) reject(err);
          else resolve(value as T);
        },
      );
      signal?.addEventListener('abort', onAbort, { once: true });
      if (req.priority === 'stream') this.warmPool.streamRequested();
      if (opts.urgent) this.queue.unshift(req);
      else this.queue.push(req);
      this.pump();
    });
  }

  private pump(): void {
    if (this.closed) return;
    const now = Date.now();
    this.queue.drain((r) => {
      if (r.settled) return 'taken';
      const place = placeRequest(r, this.providers, now, this.o);
      if (!place) return 'skip';
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
      if (place.slot === 'open') this.openAndRun(place.provider, r);
      else this.run(r, place.provider, place.slot);
      return 'taken';
    });
    this.warm(now);
  }

  /** Tops every provider up to its warm floor (also refills after a connection dropped): warm-pool.ts. */
  private warm(now: number): void {
    for (const p of this.providers) {
      const n = this.warmPool.toOpen(p, p.usable(now));
      for (let i = 0; i < n; i++) this.openAhead(p, now);
    }
  }

  /** Opens a connection no request waits for; a failure only delays the next such attempt (no breaker count). */
  private openAhead(p: ProviderState, now: number): void {
    if (this.closed || p.connectionCount >= p.config.max_connections || now < p.warmBackoffUntil) return;
    p.openingAhead++;
    this.openConnection(p).then(
      (pc) => {
        p.openingAhead--;
        if (this.closed) void pc.conn.quit();
        else this.afterCommand(p, pc);
        this.pump();
      },
      (err: Error) => {
        p.openingAhead--;
        p.warmBackoffUntil = Date.now() + Math.min(this.o.breakerCooldownMs, 5_000);
        this.options.logger?.debug('connection opened ahead failed', { provider: p.id, error: err.message });
        this.pump();
      },
    );
  }

  private wakeAt(at: number): void {
    if (this.wake && this.wake.at <= at) return;
    if (this.wake) clearTimeout(this.wake.timer);
    const timer = setTimeout(
      () => {
        this.wake = undefined;
        this.pump();
      },
      Math.max(0, at - Date.now()) + 1,
    );
    this.wake = { at, timer };
  }

  /** Opens one connection (counted while opening) and adds it to the provider once ready. */
  private openConnection(p: ProviderState): Promise<PooledConnection> {
    p.opening++;
    const cfg = p.config;
    const generation = p.generation;
    return NntpConnection.open({
      host: cfg.host,
      port: cfg.port,
      tls: cfg.tls,
      insecureTls: cfg.insecure_tls,
      tlsCa: this.options.tlsCa,
      username: cfg.username,
      password: cfg.password,
      connectTimeoutMs: this.o.connectTimeoutMs,
      stallTimeoutMs: this.o.stallTimeoutMs,
      idleTimeoutMs: this.o.idleTimeoutMs,
      limits: this.options.limits,
      backend: this.options.backend,
      onBytes: (n) => {
        this.stats.addBytes(p, n);
        p.link.addBytes(n);
      },
      onRtt: (ms) => p.recordRtt(ms),
      onTransfer: (bytes, ms) => p.link.recordTransfer(bytes, ms),
      tlsSession: cfg.tls && generation === p.generation ? p.tlsSession : undefined,
      onTlsSession: (session) => {
        if (generation === p.generation) p.tlsSession = session;
      },
    }).then(
      (conn) => {
        p.opening--;
        const pc: PooledConnection = { conn, generation, lastWorkAt: performance.now() };
        p.connections.add(pc);
        conn.onClose = () => {
          p.connections.delete(pc);
          if (p.removed && p.connectionCount === 0) this.draining.delete(p);
          this.pump();
        };
        return pc;
      },
      (err: unknown) => {
        p.opening--;
        throw err;
      },
    );
  }

  private openAndRun(p: ProviderState, r: PoolRequest): void {
    this.openConnection(p).then(
      (pc) => {
        if (this.closed) void pc.conn.quit();
        else if (r.settled) this.afterCommand(p, pc);
        else this.run(r, p, pc);
        this.pump();
      },
      (err) => {
        this.stats.recordCommand(p);
        this.onFailure(r, p, err);
        this.pump();
      },
    );
  }

  private run(r: PoolRequest, p: ProviderState, pc: PooledConnection): void {
    this.stats.recordCommand(p);
    pc.lastWorkAt = performance.now();
    const isBody = r.kind === 'body';
    if (isBody) p.link.bodyStarted(pc.lastWorkAt);
    const op: Promise<unknown> = isBody
      ? pc.conn.body(r.messageId, r.into).then((part) => ({ ...part, messageId: r.messageId, providerId: p.id }))
      : pc.conn.stat(r.messageId);
    op.then(
      (value) => {
        p.recordSuccess();
        r.finish(undefined, value);
      },
      (err) => this.onFailure(r, p, err),
    ).finally(() => {
      if (isBody) p.link.bodyEnded(performance.now());
      this.afterCommand(p, pc);
      this.pump();
    });
  }

  private onFailure(r: PoolRequest, p: ProviderState, raw: unknown): void {
    recordFailure(r, p, raw, this.stats, this.o, this.options.logger);
    if (r.settled) return;
    // A request whose connection failed as the pool closed would wait in a queue nobody drains any more.
    if (this.closed) return r.finish(new AbortedError('Pool closed'));
    r.enqueuedAt = performance.now();
    this.queue.unshift(r);
  }

  /** Close a connection that should take no more work once it is idle. */
  private afterCommand(p: ProviderState, pc: PooledConnection): void {
    if (pc.conn.inflight > 0 || pc.conn.isClosed) return;
    const stale = pc.generation !== p.generation || p.removed || !p.config.enabled;
    if (stale || p.connections.size > p.config.max_connections) {
      p.connections.delete(pc);
      void pc.conn.quit();
    }
  }

  private retireIdle(p: ProviderState): void {
    for (const pc of [...p.connections]) this.afterCommand(p, pc);
    if (p.removed && p.connectionCount === 0) this.draining.delete(p);
  }
}
