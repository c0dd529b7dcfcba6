/** Cleanup of a bench that is interrupted: no server, proxy, mount or temp folder is left behind. */
import { rmSync } from 'node:fs';
import { isMounted } from '../../appliance/fuse/mount.service.js';

const cleanups = new Set<() => Promise<unknown>>();
let trapped = false;

/**
 * Runs `fn` (stop a server, unmount, remove a folder) if the bench is interrupted (SIGINT, SIGTERM) before the
 * returned release() is called. Cleanups run together, each bounded to 10 s.
 */
export function cleanupOnSignal(fn: () => Promise<unknown>): () => void {
  cleanups.add(fn);
  if (!trapped) {
    trapped = true;
    for (const sig of ['SIGINT', 'SIGTERM'] as const)
      process.once(sig, () => {
        // All at once: a runner above us (tsx) may not wait long for this process to exit.
        const bounded = (f: () => Promise<unknown>) =>
          Promise.race([f().catch(() => undefined), new Promise((r) => setTimeout(r, 10_000))]);
        void Promise.all([...cleanups].map(bounded)).finally(() => process.exit(130));
      });
  }
  return () => cleanups.delete(fn);
}

/**
 * Removes `dirs` if the bench is interrupted; call the returned function to remove them at the end as well. A dir
 * that is still a mount point is left alone (removing through a mount could block on a dead FUSE server).
 */
export function tempDirsCleanup(dirs: string[]): () => void {
  const remove = async () => {
    for (const d of dirs) {
      if (isMounted(d)) continue;
      // A server still shutting down may write into its data dir meanwhile (ENOTEMPTY): retried, and one dir's
      // failure never keeps the others.
      try {
        rmSync(d, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
      } catch {
        // left behind: a temp folder, nothing else
      }
    }
  };
  const release = cleanupOnSignal(remove);
  return () => {
    release();
    void remove();
  };
}
