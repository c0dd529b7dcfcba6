/**
 * Mount points for tests of a FUSE mount (Spool's own or rclone's): a fresh folder to mount on, and the cleanup that
 * also works when a test failed half-way and left the mount behind (a folder still mounted cannot be removed).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { isMounted } from '../../../appliance/fuse/mount.service.js';

const run = promisify(execFile);

/** A fresh empty folder under the temp dir, named `<prefix>XXXXXX`, to mount on. */
export function tempMountPoint(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Detaches whatever is still mounted at `dir` (lazily, so a busy mount goes too), then removes the folder. */
export async function removeMountPoint(dir: string | undefined): Promise<void> {
  if (!dir) return;
  if (isMounted(dir)) await run('fusermount3', ['-uz', dir]).catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
}
