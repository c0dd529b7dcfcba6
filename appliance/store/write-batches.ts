import type { RootDatabase } from 'lmdb';

/** lmdb-js's native environment as its write path calls it (lmdb 3.5.6 write.js: `env.startWriting`). */
interface WritingEnv {
  startWriting(address: number, report: (status: number) => unknown): unknown;
}

/** What the native writer reports on its way (write.js): 2 runs the transaction callbacks, 1 the commit is visible. */
const PROGRESS = new Set([1, 2]);

/**
 * Counts the write batches whose native write thread has not reported its end, so a close can wait for them.
 *
 * lmdb-js 3.5.6 resolves a write when its commit is visible and `flushed` when the last batch ends, but batches
 * overlap: an earlier batch's thread, past its commit and its write lock, still reads the environment's shared
 * state (src/writer.cpp `WriteWorker::Write` notifies `__committed__`), and `close()` frees that state at once
 * (src/env.cpp `EnvWrap::closeEnv`). A close in that gap crashed the process (SIGSEGV or SIGFPE in the write
 * thread: 9 crashes and a hang in about 310 runs of appliance/diagnostics/latency-history.test.ts on a busy machine). Each
 * batch's end is the last report to its callback (the native `writes_complete`: its result code, 0 when it wrote).
 */
export function trackWriteBatches(root: RootDatabase): { settled(): Promise<void> } {
  const env = (root as unknown as { env?: Partial<WritingEnv> }).env;
  const start = env?.startWriting;
  if (!env || typeof start !== 'function') throw new Error('lmdb-js has no env.startWriting: store.ts needs a look');
  let running = 0;
  const waiters: (() => void)[] = [];
  Object.defineProperty(env, 'startWriting', {
    configurable: true,
    value(this: WritingEnv, address: number, report: (status: number) => unknown) {
      let ended = false;
      const result = start.call(this, address, (status: number) => {
        if (!ended && !PROGRESS.has(status)) {
          ended = true;
          if (--running === 0) for (const wake of waiters.splice(0)) wake();
        }
        return report(status);
      });
      running++; // after the call: one that threw started nothing (the native writer reports on a later turn)
      return result;
    },
  });
  return {
    settled: () => (running === 0 ? Promise.resolve() : new Promise<void>((r) => waiters.push(r))),
  };
}
