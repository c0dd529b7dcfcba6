import type pg from 'pg';
import type { Logger } from '../../logging/logger.js';

interface Subscription {
  channel: string;
  handler: (payload: string) => void;
  onReconnect?: () => void;
}

/** Waits before connecting again after the listening connection dropped (ms), doubling up to the last. */
const BACKOFF_MS = [250, 500, 1000, 2000, 5000];

/**
 * The one listening connection of a node: LISTENs to every channel someone subscribed to and hands each payload to
 * its handlers. When the connection drops it connects again (with back-off), LISTENs again and tells every
 * subscriber (`onReconnect`), since notifications sent while it was down are lost.
 */
export class PgListener {
  private readonly subs = new Set<Subscription>();
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private closed = false;
  private failures = 0;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly makeClient: () => pg.Client,
    private readonly logger?: Logger,
  ) {}

  subscribe(channel: string, handler: (payload: string) => void, onReconnect?: () => void): () => void {
    const sub: Subscription = { channel, handler, onReconnect };
    const known = [...this.subs].some((s) => s.channel === channel);
    this.subs.add(sub);
    if (this.client && !known) this.pendingListen = this.listenOn(this.client, channel);
    else if (!this.client) void this.ensure(false);
    return () => this.subs.delete(sub);
  }

  /** A LISTEN sent on the live connection for a channel subscribed after it connected. */
  private pendingListen: Promise<void> = Promise.resolve();

  private async listenOn(client: pg.Client, channel: string): Promise<void> {
    const before = this.pendingListen;
    await before;
    await client.query(`LISTEN ${ident(channel)}`).catch(() => undefined);
  }

  /**
   * Resolves once the connection listens on every channel subscribed so far (a store that keeps a copy in memory
   * subscribes, awaits this, then reads: nothing committed after its read goes unheard). Waits at most `timeoutMs`;
   * false when the connection was not up by then (the subscriber's `onReconnect` re-read covers that case).
   */
  async listening(timeoutMs = 5_000): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), timeoutMs)));
    const ready = (async () => {
      for (;;) {
        if (this.closed) return false;
        if (!this.client) await (this.connecting ?? this.ensure(false));
        if (this.client) {
          await this.pendingListen;
          if (this.client) return true;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    try {
      return await Promise.race([ready, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private ensure(reconnect: boolean): Promise<void> {
    this.connecting ??= this.connect(reconnect).finally(() => (this.connecting = null));
    return this.connecting;
  }

  private async connect(reconnect: boolean): Promise<void> {
    if (this.closed) return;
    const client = this.makeClient();
    try {
      client.on('error', (err) => this.lost(client, err));
      client.on('end', () => this.lost(client));
      client.on('notification', (n) => {
        for (const s of this.subs) if (s.channel === n.channel) safely(() => s.handler(n.payload ?? ''), this.logger);
      });
      await client.connect();
      // Until no channel is left: a subscription made while a LISTEN was on its way is listened to as well.
      const done = new Set<string>();
      for (;;) {
        const todo = [...new Set([...this.subs].map((s) => s.channel))].filter((c) => !done.has(c));
        if (todo.length === 0) break;
        for (const channel of todo) {
          await client.query(`LISTEN ${ident(channel)}`);
          done.add(channel);
        }
      }
      if (this.closed) return void (await client.end().catch(() => undefined));
      this.client = client;
      this.failures = 0;
      if (reconnect) {
        this.logger?.info('postgresql notifications back');
        for (const s of this.subs) if (s.onReconnect) safely(s.onReconnect, this.logger);
      }
    } catch (err) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      this.schedule(err);
    }
  }

  private lost(client: pg.Client, err?: Error): void {
    if (this.client !== client) return;
    this.client = null;
    client.removeAllListeners('end');
    this.schedule(err);
  }

  private schedule(err?: unknown): void {
    if (this.closed || this.retry) return;
    const wait = BACKOFF_MS[Math.min(this.failures++, BACKOFF_MS.length - 1)] as number;
    this.logger?.warn('postgresql notifications lost; connecting again', {
      in_ms: wait,
      error: err instanceof Error ? err.message : err === undefined ? 'connection ended' : String(err),
    });
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.ensure(true);
    }, wait);
    this.retry.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = null;
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
    }
  }
}

function ident(channel: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`Invalid notification channel '${channel}'`);
  return channel;
}

function safely(fn: () => void, logger?: Logger): void {
  try {
    fn();
  } catch (err) {
    logger?.error('notification handler failed', { error: err instanceof Error ? err.message : String(err) });
  }
}
