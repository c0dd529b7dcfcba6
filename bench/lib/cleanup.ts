/** Cleanup of a bench that is interrupted: no server, proxy or mount is left behind. */
const cleanups = new Set<() => Promise<unknown>>();
let trapped = false;

/**
 * Runs `fn` (stop a server, a proxy, unmount) if the bench is interrupted (SIGINT, SIGTERM) before the returned
 * release() is called, so an interrupted run leaves no process or mount behind. Each cleanup is bounded to 10 s.
 */
export function cleanupOnSignal(fn: () => Promise<unknown>): () => void {
  cleanups.add(fn);
  if (!trapped) {
    trapped = true;
    for (const sig of ['SIGINT', 'SIGTERM'] as const)
      process.once(sig, () => {
        const bounded = (f: () => Promise<unknown>) =>
          Promise.race([f().catch(() => undefined), new Promise((r) => setTimeout(r, 10_000))]);
        void Promise.all([...cleanups].map(bounded)).finally(() => process.exit(130));
      });
  }
  return () => cleanups.delete(fn);
}
