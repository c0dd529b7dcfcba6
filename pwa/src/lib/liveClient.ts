import type { LiveEventMessage, LiveMessage, LiveTopic } from '../api/types';

/** Where the channel is: not started, opening, open (its hello arrived), or down waiting to reconnect. */
export type LiveState = 'off' | 'connecting' | 'live' | 'down';

/** Reconnects wait 1 s, doubling up to 30 s; a connection that says hello starts again at 1 s. */
export const BACKOFF_FIRST_MS = 1_000;
export const BACKOFF_MAX_MS = 30_000;

export class Backoff {
  private attempt = 0;

  constructor(
    private readonly firstMs = BACKOFF_FIRST_MS,
    private readonly maxMs = BACKOFF_MAX_MS,
  ) {}

  /** The wait before the next attempt (and counts it). */
  next(): number {
    const ms = Math.min(this.maxMs, this.firstMs * 2 ** this.attempt);
    if (ms < this.maxMs) this.attempt++;
    return ms;
  }

  reset(): void {
    this.attempt = 0;
  }
}

/** The part of a WebSocket the client uses (the browser's, or a test's). */
export interface LiveSocket {
  send(text: string): void;
  close(): void;
  onmessage: ((ev: MessageEvent) => void) | null;
  onclose: ((ev: CloseEvent) => void) | null;
  onerror: ((ev: Event) => void) | null;
}

/** Time as a dependency: the browser's timers, or a test's manual clock. */
export interface LiveTimers {
  schedule(fn: () => void, ms: number): () => void;
}

export interface LiveClientOptions {
  url: string;
  connect: (url: string) => LiveSocket;
  timers: LiveTimers;
  /** The topics wanted now (sent after each hello and on `resubscribe`). */
  topics: () => LiveTopic[];
  onEvent: (msg: LiveEventMessage) => void;
  onState: (state: LiveState) => void;
}

/**
 * One connection to the live channel (`/api/live`), kept open: it is live once the server's hello arrives, then
 * subscribes to `topics()`; when the socket closes or fails it reconnects after Backoff's wait. `stop` ends it.
 */
export class LiveClient {
  private socket: LiveSocket | null = null;
  private cancelRetry: (() => void) | null = null;
  private readonly backoff = new Backoff();
  private running = false;
  private state: LiveState = 'off';

  constructor(private readonly o: LiveClientOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.open();
  }

  stop(): void {
    this.running = false;
    this.cancelRetry?.();
    this.cancelRetry = null;
    const s = this.socket;
    this.socket = null;
    if (s) {
      s.onclose = s.onerror = s.onmessage = null;
      s.close();
    }
    this.setState('off');
  }

  /** Sends the topics wanted now (when they changed). */
  resubscribe(): void {
    if (this.state === 'live') this.socket?.send(JSON.stringify({ type: 'subscribe', topics: this.o.topics() }));
  }

  private open(): void {
    this.cancelRetry = null;
    this.setState('connecting');
    let s: LiveSocket;
    try {
      s = this.o.connect(this.o.url);
    } catch {
      this.retry();
      return;
    }
    this.socket = s;
    s.onmessage = (ev) => this.received(ev.data);
    s.onclose = s.onerror = () => {
      if (this.socket !== s) return;
      this.socket = null;
      s.onclose = s.onerror = s.onmessage = null;
      this.retry();
    };
  }

  private received(data: unknown): void {
    let msg: LiveMessage;
    try {
      msg = JSON.parse(String(data)) as LiveMessage;
    } catch {
      return;
    }
    if (msg.type === 'hello') {
      this.backoff.reset();
      this.setState('live');
      this.resubscribe();
    } else if (msg.type === 'event') {
      this.o.onEvent(msg);
    }
  }

  private retry(): void {
    if (!this.running) return;
    this.setState('down');
    this.cancelRetry = this.o.timers.schedule(() => this.open(), this.backoff.next());
  }

  private setState(state: LiveState): void {
    if (state === this.state) return;
    this.state = state;
    this.o.onState(state);
  }
}
