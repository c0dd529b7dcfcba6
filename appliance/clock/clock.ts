/** An opaque timer: whatever the clock's setTimeout returned, handed back to its clearTimeout. */
export type TimerHandle = { readonly __timer: unique symbol };

/**
 * Time as Spool's domains see it. The app passes one clock to every domain that waits or stamps times, so a test
 * can hand createApp a fake one and move time by hand instead of sleeping.
 */
export interface Clock {
  /** Milliseconds since the epoch, as Date.now(). */
  now(): number;
  /** Calls `fn` once after `ms` milliseconds. The timer does not keep the process alive. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** The real clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref() as unknown as TimerHandle,
  clearTimeout: (handle) => clearTimeout(handle as unknown as NodeJS.Timeout),
};
