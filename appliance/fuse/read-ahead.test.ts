import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { mountDevice, raiseReadAhead } from './read-ahead.js';

const dir = mkdtempSync(path.join(tmpdir(), 'spool-ra-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const MOUNTINFO = [
  '22 1 253:0 / / rw,relatime shared:1 - ext4 /dev/vda rw',
  '90 22 0:52 / /tmp/my\\040media rw,nosuid,nodev,relatime shared:50 - fuse.spool spool rw,user_id=0,group_id=0',
  '91 22 0:53 / /mnt/spool rw,nosuid,nodev,relatime shared:51 - fuse.spool spool rw,user_id=0,group_id=0',
  '95 91 0:57 / /mnt/spool rw,nosuid,nodev,relatime shared:52 - fuse.spool spool rw,user_id=0,group_id=0',
].join('\n');

test('mountDevice finds the device of a mount point (escaped spaces, the mount on top wins)', () => {
  assert.equal(mountDevice('/tmp/my media', MOUNTINFO), '0:52');
  assert.equal(mountDevice('/mnt/spool', MOUNTINFO), '0:57');
  assert.equal(mountDevice('/mnt/other', MOUNTINFO), null);
  assert.equal(mountDevice('/mnt', MOUNTINFO), null);
});

test('raiseReadAhead writes the knob of that device, and says why when it cannot', () => {
  const mountinfo = path.join(dir, 'mountinfo');
  writeFileSync(mountinfo, MOUNTINFO);
  const bdiRoot = path.join(dir, 'bdi');
  mkdirSync(path.join(bdiRoot, '0:57'), { recursive: true });
  writeFileSync(path.join(bdiRoot, '0:57', 'read_ahead_kb'), '128');
  assert.deepEqual(raiseReadAhead('/mnt/spool', 1024, { mountinfo, bdiRoot }), { ok: true, kb: 1024, device: '0:57' });
  assert.equal(readFileSync(path.join(bdiRoot, '0:57', 'read_ahead_kb'), 'utf8'), '1024');

  const missing = raiseReadAhead('/tmp/my media', 1024, { mountinfo, bdiRoot });
  assert.equal(missing.ok, false);
  assert.match((missing as { reason: string }).reason, /ENOENT/);
  const notMounted = raiseReadAhead('/nowhere', 1024, { mountinfo, bdiRoot });
  assert.deepEqual(notMounted, { ok: false, reason: `/nowhere is not in ${mountinfo}` });
});
