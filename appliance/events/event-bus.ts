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
 */
export class EventBus<M> implements EventSink<M>, EventSource<M> {
  private readonly listeners = new Map<keyof M, readonly AnyListener[]>();

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
