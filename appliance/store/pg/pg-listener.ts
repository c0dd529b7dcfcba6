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
    if (this.client && !known) void this.client.query(`LISTEN ${ident(channel)}`).catch(() => undefined);
    else if (!this.client) void this.ensure(false);
    return () => this.subs.delete(sub);
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
      for (const channel of new Set([...this.subs].map((s) => s.channel)))
        await client.query(`LISTEN ${ident(channel)}`);
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
