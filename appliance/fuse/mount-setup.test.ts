import assert from 'node:assert/strict';
import { test } from 'node:test';
import { holdingMount, mountBlocker, propagationProblem, type MountSetupFacts } from './mount-setup.js';

// A container's /proc/self/mountinfo (podman, runc): the overlay root, /config a private bind, /mnt/spool an rshared
// bind, /mnt/media a private bind; the optional fields before " - " carry shared:N for shared mounts.
const MOUNTINFO = [
  '600 550 0:52 / / rw,relatime master:1 - overlay overlay rw,lowerdir=/a,upperdir=/b,workdir=/c',
  '601 600 0:53 / /proc rw,nosuid,nodev,noexec,relatime - proc proc rw',
  '610 600 8:1 /srv/config /config rw,relatime - ext4 /dev/sda1 rw',
  '611 600 8:1 /srv/mnt /mnt/spool rw,relatime shared:1 - ext4 /dev/sda1 rw',
  '612 600 8:1 /srv/media /mnt/media\\040files rw,relatime - ext4 /dev/sda1 rw',
  '620 611 0:60 / /mnt/spool rw,nosuid,nodev,relatime shared:300 - fuse.spool spool rw,user_id=911,group_id=911',
].join('\n');

// CapBnd of a default Docker container (no SYS_ADMIN) and of one with --cap-add SYS_ADMIN.
const DEFAULT_CAPS = 'Name:\tnode\nCapBnd:\t00000000a80425fb\n';
const WITH_SYS_ADMIN = 'Name:\tnode\nCapBnd:\t00000000a82425fb\n';

const facts = (over: Partial<MountSetupFacts>): MountSetupFacts => ({
  fuseDevice: '/dev/fuse',
  fuseDeviceExists: true,
  fuseDeviceUsable: true,
  uid: 911,
  uidNamed: true,
  procStatus: WITH_SYS_ADMIN,
  mountinfo: MOUNTINFO,
  inContainer: true,
  ...over,
});

test('no /dev/fuse: the mount cannot start, and the message names the device and capability flags', () => {
  const msg = mountBlocker(facts({ fuseDeviceExists: false }));
  assert.match(msg ?? '', /No \/dev\/fuse/);
  assert.match(msg ?? '', /--device \/dev\/fuse --cap-add SYS_ADMIN/);
  assert.match(msg ?? '', /WebDAV keeps working/);
});

test('a device this uid cannot open (plain mode, a host /dev/fuse of 0600): names the uid and both fixes', () => {
  const msg = mountBlocker(facts({ fuseDeviceUsable: false }));
  assert.match(msg ?? '', /\/dev\/fuse is not readable and writable by uid 911/);
  assert.match(msg ?? '', /Run the image as root \(without --user\)/);
  assert.match(msg ?? '', /chmod 0666 \/dev\/fuse/);
});

test('a uid without a name (docker run --user with an id the image does not know): says fusermount3 needs one', () => {
  const msg = mountBlocker(facts({ uid: 4321, uidNamed: false }));
  assert.match(msg ?? '', /uid 4321 has no user name here, and fusermount3 mounts only for named users/);
  assert.match(msg ?? '', /--user 911:911/);
});

test('SYS_ADMIN missing from the bounding set: the message says to add it', () => {
  const msg = mountBlocker(facts({ procStatus: DEFAULT_CAPS }));
  assert.match(msg ?? '', /lacks the SYS_ADMIN capability/);
  assert.match(msg ?? '', /--cap-add SYS_ADMIN/);
});

test('device and SYS_ADMIN present, or a status without CapBnd: nothing blocks', () => {
  assert.equal(mountBlocker(facts({})), null);
  assert.equal(mountBlocker(facts({ procStatus: '' })), null);
});

test('the mount point is held by its own bind, not the one mounted over it, nor a parent', () => {
  assert.deepEqual(holdingMount('/mnt/spool', MOUNTINFO), { mountPoint: '/mnt/spool', shared: true });
  assert.deepEqual(holdingMount('/mnt/spool/sub', MOUNTINFO), { mountPoint: '/mnt/spool', shared: true });
  assert.deepEqual(holdingMount('/mnt/media files/x', MOUNTINFO), { mountPoint: '/mnt/media files', shared: false });
  assert.deepEqual(holdingMount('/data/x', MOUNTINFO), { mountPoint: '/', shared: false });
});

test('in a container, a mount path on a private mount gets the rshared fix; a shared bind gets none', () => {
  assert.equal(propagationProblem('/mnt/spool', facts({})), null);
  const msg = propagationProblem('/data/spool', facts({}));
  assert.match(msg ?? '', /\/data\/spool is not on a shared mount/);
  assert.match(msg ?? '', /:rshared/);
});

test('outside a container the propagation is not checked (the mount is in the host namespace already)', () => {
  assert.equal(propagationProblem('/data/spool', facts({ inContainer: false })), null);
});
