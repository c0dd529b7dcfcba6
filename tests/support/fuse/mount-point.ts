/**
 * Mount points for tests of a FUSE mount (Spool's own or rclone's): a fresh folder to mount on, and the cleanup that
 * also works when a test failed half-way and left the mount behind (a folder still mounted cannot be removed).
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { isMounted, mountTypeAt } from '../../../appliance/fuse/mount.service.js';
import { readMountSetupFacts } from '../../../appliance/fuse/mount-setup.js';

const run = promisify(execFile);

/**
 * A fresh empty folder under the temp dir, named `<prefix>XXXXXX`, to mount on. In a container (CI often runs in
 * one) Spool reports a mount path that is not on a shared mount (appliance/fuse/mount-setup.ts): the folder is made
 * one, a bind of itself with shared propagation, as docs/deployment.md tells a user to bind the mount path.
 */
export function tempMountPoint(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (readMountSetupFacts().inContainer) {
    execFileSync('mount', ['--bind', dir, dir]);
    execFileSync('mount', ['--make-shared', dir]);
  }
  return dir;
}

/** Detaches whatever is still mounted at `dir` (lazily, so a busy mount goes too), then removes the folder. */
export async function removeMountPoint(dir: string | undefined): Promise<void> {
  if (!dir) return;
  if (isMounted(dir)) await run('fusermount3', ['-uz', dir]).catch(() => undefined);
  // the shared bind of tempMountPoint
  for (let tries = 0; mountTypeAt(dir) !== '' && tries < 4; tries++)
    await run('umount', ['-l', dir]).catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
}
