import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { removeMountPoint, tempMountPoint } from '../../support/fuse/mount-point.js';
import { startServer, type TestServer } from '../../support/server.js';

// The real FUSE mount started and stopped through the API, and a start that cannot work: each announced on the
// app's bus as mount.state.changed (appliance/events/spool-events.ts).
let srv: TestServer;
let mnt: string;

before(async () => {
  mnt = tempMountPoint('spool-mnt-events-');
  srv = await startServer({ config: { auth: { login_required: false }, mount_path: mnt } });
});
after(async () => {
  await srv?.stop();
  await removeMountPoint(mnt);
});

const post = (path: string) => fetch(`${srv.baseUrl}${path}`, { method: 'POST' }).then((r) => r.status);

test('the mount coming up, going down and failing to start are announced', async () => {
  const seen: { mounted: boolean; mount_point: string; error: string }[] = [];
  const off = srv.app().events.on('mount.state.changed', (e) => seen.push(e));
  try {
    assert.equal(await post('/api/rclone/mount/start'), 200);
    assert.equal(await post('/api/rclone/mount/stop'), 200);
    assert.deepEqual(seen, [
      { mounted: true, mount_point: mnt, error: '' },
      { mounted: false, mount_point: mnt, error: '' },
    ]);
    await srv.app().config.patchSection('system', { mount_path: '' });
    assert.equal(await post('/api/rclone/mount/start'), 500);
    assert.equal(seen.length, 3);
    assert.equal(seen[2]!.mounted, false);
    assert.match(seen[2]!.error, /mount_path is not set/);
  } finally {
    off();
  }
});
