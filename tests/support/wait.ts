/**
 * Waiting in tests: a test waits for the event it needs, never for a time, and never asserts how long something took
 * (CI runs on a busy machine; speeds are figures for `npm run bench`, docs/performance.md). A wait gives up only after
 * HUNG_RUN_MS: a safety cap that exists to stop a hung run and say what it was waiting for, not a deadline an event
 * must meet. (The runner stops any test after 5 minutes: scripts/test.mjs.)
 */
export const HUNG_RUN_MS = 4 * 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface WaitOptions {
  /** How often to look (default 100 ms). */
  everyMs?: number;
  /** The cap (default HUNG_RUN_MS). Only a bench whose work takes longer than a test's (a GiB import) raises it. */
  hungAfterMs?: number;
}

/**
 * Polls `probe` until it gives a value other than undefined or false, and returns it. After the cap it throws, naming
 * `what` (a string, or a function saying what was last seen).
 */
export async function waitUntil<T>(
  what: string | (() => string),
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  opts: WaitOptions = {},
): Promise<T> {
  const cap = opts.hungAfterMs ?? HUNG_RUN_MS;
  const hungAt = Date.now() + cap;
  for (;;) {
    const got = await probe();
    if (got !== undefined && got !== false) return got;
    if (Date.now() > hungAt) {
      throw new Error(`still waiting after ${Math.round(cap / 1000)} s: ${typeof what === 'string' ? what : what()}`);
    }
    await sleep(opts.everyMs ?? 100);
  }
}
