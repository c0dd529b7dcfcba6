import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mountOptions, seconds } from './mount.service.js';
import { DEFAULTS } from '../config/defaults.js';
import type { SpoolConfig } from '../config/index.js';

// The rclone section becomes libfuse 3 -o options; FUSE 3 has no `nonempty`, so it is never passed.
const withRclone = (r: Partial<SpoolConfig['rclone']>): SpoolConfig => ({
  ...DEFAULTS,
  rclone: { ...DEFAULTS.rclone, ...r },
});

test('allow_other, ro, attr_timeout and dir_cache_time map to -o options', () => {
  const opts = mountOptions(
    withRclone({ allow_other: true, read_only: true, attr_timeout: '2s', dir_cache_time: '5m', allow_non_empty: true }),
  );
  assert.deepEqual(opts, [
    'fsname=spool',
    'subtype=spool',
    'max_read=1048576',
    'attr_timeout=2',
    'entry_timeout=300',
    'allow_other',
    'ro',
    'direct_io',
  ]);
  const plain = mountOptions(withRclone({ allow_other: false, read_only: false }));
  assert.ok(!plain.includes('allow_other') && !plain.includes('ro'));
  assert.ok(!plain.some((o) => o.startsWith('nonempty')));
});

test('async_read off asks the addon for sync reads (sync_read); on, nothing is added', () => {
  assert.ok(mountOptions(withRclone({ async_read: false })).includes('sync_read'));
  assert.ok(!mountOptions(withRclone({ async_read: true })).includes('sync_read'));
});

test('direct I/O is on unless mount_options turns it off, under any of its spellings', () => {
  assert.ok(mountOptions(withRclone({})).includes('direct_io'));
  type Options = Record<string, string | number | boolean>;
  for (const off of <Options[]>[{ direct_io: false }, { 'direct-io': 'false' }, { DirectIO: 'no' }, { direct_io: 0 }])
    assert.ok(!mountOptions(withRclone({ mount_options: off })).includes('direct_io'), JSON.stringify(off));
  for (const on of <Options[]>[{ direct_io: true }, { DirectIO: 'true' }, { 'direct-io': 1 }, { other: false }])
    assert.ok(mountOptions(withRclone({ mount_options: on })).includes('direct_io'), JSON.stringify(on));
});

test('rclone durations in seconds', () => {
  assert.equal(seconds('1h30m', 1), 5400);
  assert.equal(seconds('250ms', 1), 0.25);
  assert.equal(seconds('', 7), 7);
  assert.equal(seconds(3, 1), 3);
});
