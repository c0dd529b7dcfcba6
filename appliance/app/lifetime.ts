import type { Logger } from '../logging/logger.js';

/** Something to stop when the app stops (a close, an unsubscribe, a timer's cancel). */
export type Stop = () => void | Promise<void>;

/**
 * What every capability builder of the composition root returns (`create<Capability>` in app/, docs/architecture.md
 * "The composition root"): what it serves to the builders after it, and what the app stops when it stops.
 */
export interface Built<T> {
  serves: T;
  stops: Stop[];
}

/** A builder's answer when it serves something and has nothing to stop, or stops what it was given. */
export function built<T>(serves: T, ...stops: Stop[]): Built<T> {
  return { serves, stops };
}

/**
 * The app's stops, in order of creation; `stopAll` runs them in reverse (what was built last stops first), logging
 * and passing over any that throws, so one failing close never keeps the rest open.
 */
export class Lifetime {
  private readonly stops: Stop[] = [];

  constructor(private readonly logger: Logger) {}

  /** Keeps a builder's stops and hands back what it serves. */
  take<T>(built: Built<T>): T {
    this.stops.push(...built.stops);
    return built.serves;
  }

  async stopAll(): Promise<void> {
    for (const stop of this.stops.splice(0).reverse()) {
      try {
        await stop();
      } catch (err) {
        this.logger.error('error while closing', { error: err instanceof Error ? err.message : String(err) });
      }
    }
  }
}
