import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MountService } from '../fuse/mount.service.js';
import { memoryLogger } from '../logging/logger.js';
import type { RcloneService } from '../rclone/rclone.service.js';
import type { TreeStore } from '../vfs/tree.port.js';
import { followRemoteTreeChanges } from './tree-remote-changes.js';

/** A shared tree's announcements by hand, and what the mount and rclone were asked. */
function harness() {
  let listener: ((paths: string[]) => void) | undefined;
  const tree = {
    onRemoteChange: (l: (paths: string[]) => void) => {
      listener = l;
      return () => (listener = undefined);
    },
  } as unknown as TreeStore;
  const invalidated: string[][] = [];
  const refreshed: string[] = [];
  const mount = { invalidate: async (paths: string[]) => void invalidated.push(paths) } as unknown as MountService;
  const rclone = { refresh: (dir: string) => void refreshed.push(dir) } as unknown as RcloneService;
  const stop = followRemoteTreeChanges(tree, mount, rclone, memoryLogger());
  return { announce: (paths: string[]) => listener?.(paths), invalidated, refreshed, stop };
}

test("another node's changes drop the kernel's cache of the paths and their folders, and refresh the folders", () => {
  const h = harness();
  h.announce(['/complete/tv/Job/a.mkv', '/complete/tv/Job/b.mkv', '/complete/tv/Job']);
  assert.deepEqual(h.invalidated, [
    ['/complete/tv/Job/a.mkv', '/complete/tv/Job/b.mkv', '/complete/tv/Job', '/complete/tv'],
  ]);
  assert.deepEqual(h.refreshed, ['/complete/tv/Job', '/complete/tv']);
  h.stop();
  h.announce(['/x']);
  assert.equal(h.invalidated.length, 1, 'nothing after stop');
});

test('a change spread over many folders refreshes the root once', () => {
  const h = harness();
  h.announce(Array.from({ length: 60 }, (_, i) => `/complete/tv/Job${i}/e.mkv`));
  assert.deepEqual(h.refreshed, ['/']);
  assert.equal(h.invalidated[0]!.length, 120);
});
