import type { Logger } from '../logging/logger.js';

/** What a domain that announces changes is given: emit, and ask first whether anyone listens (hot events). */
export interface EventSink<M> {
  emit<K extends keyof M>(name: K, payload: M[K]): void;
  /** True when `name` has a subscriber: check it before building the payload of a frequent event. */
  hasListeners(name: keyof M): boolean;
}

/** What a subscriber (wired in appliance/app/ only) is given; `on` returns the unsubscribe. */
export interface EventSource<M> {
  on<K extends keyof M>(name: K, listener: (payload: M[K]) => void): () => void;
}

type AnyListener = (payload: never) => unknown;

/**
 * A small typed event bus: synchronous delivery in subscription order; a subscriber that throws (or returns a
 * promise that rejects) is logged and never breaks the emitter or the other subscribers. Listener lists are
 * copied on subscribe and unsubscribe, so an emit walks a stable array and costs one map lookup when nobody listens.
 *
 * An event emitted by a subscriber (the runner woken by `queue.item.added` claims the item and emits its
 * `queue.item.changed`) is delivered once the event in hand has reached every subscriber, still before the outer
 * `emit` returns: every subscriber sees events in the order they happened.
 */
export class EventBus<M> implements EventSink<M>, EventSource<M> {
  private readonly listeners = new Map<keyof M, readonly AnyListener[]>();
  /** Events emitted while one is being delivered, in order; null when no delivery is under way. */
  private pending: { name: keyof M; payload: unknown }[] | null = null;

  constructor(private readonly logger?: Logger) {}

  on<K extends keyof M>(name: K, listener: (payload: M[K]) => void): () => void {
    const entry = listener as AnyListener;
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), entry]);
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      const rest = (this.listeners.get(name) ?? []).filter((l) => l !== entry);
      if (rest.length) this.listeners.set(name, rest);
      else this.listeners.delete(name);
    };
  }

  hasListeners(name: keyof M): boolean {
    return this.listeners.has(name);
  }

  emit<K extends keyof M>(name: K, payload: M[K]): void {
    if (!this.listeners.has(name)) return;
    if (this.pending) {
      this.pending.push({ name, payload });
      return;
    }
    const pending: { name: keyof M; payload: unknown }[] = [];
    this.pending = pending;
    try {
      this.deliver(name, payload);
      for (let next = pending.shift(); next; next = pending.shift()) this.deliver(next.name, next.payload as never);
    } finally {
      this.pending = null;
    }
  }

  private deliver<K extends keyof M>(name: K, payload: M[K]): void {
    const list = this.listeners.get(name);
    if (!list) return;
    for (const listener of list) {
      try {
        const result = (listener as (p: M[K]) => unknown)(payload);
        if (isPromise(result)) result.catch((err: unknown) => this.failed(name, err));
      } catch (err) {
        this.failed(name, err);
      }
    }
  }

  /** Drops every subscriber (the app's stop). */
  clear(): void {
    this.listeners.clear();
  }

  private failed(name: keyof M, err: unknown): void {
    this.logger?.error('an event subscriber failed', {
      event: String(name),
      error: err instanceof Error ? (err.stack ?? err.message) : String(err),
    });
  }
}

function isPromise(value: unknown): value is Promise<unknown> {
  return typeof (value as Promise<unknown> | undefined)?.then === 'function';
}

/** An emitter for code built without an app (unit tests of one domain): nobody listens, nothing is built. */
export function silentEvents<M>(): EventSink<M> {
  return { emit: () => undefined, hasListeners: () => false };
}
