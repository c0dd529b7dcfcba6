import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RCLONE_DEFAULTS, parseOptions, toForm, toPayload, validate } from './rcloneForm';
import { parseWithFallback } from '../../numbers';
import { RCLONE_NUMBER_RULES } from './rcloneForm';

test('a missing rclone section takes the docs/console-contract.md §9 defaults and the default mount path', () => {
  const form = toForm(undefined, undefined);
  assert.equal(form.rc_port, 5572);
  assert.equal(form.transfers, 4);
  assert.equal(form.vfs_cache_mode, 'full');
  assert.equal(form.umask, '002');
  assert.equal(form.mount_path, '/mnt/spool');
  assert.equal(form.allow_other, true);
  assert.equal(form.use_mmap, false);
  assert.equal('rc_enabled' in form, false, 'the RC toggle is saved on its own');
  assert.deepEqual(validate(form), {});
});

test('invalid numbers fall back: transfers to 4, rc_port to 5572 (docs/console-contract.md §5)', () => {
  assert.equal(parseWithFallback('abc', RCLONE_NUMBER_RULES.transfers), 4);
  assert.equal(parseWithFallback('', RCLONE_NUMBER_RULES.rc_port), 5572);
  const form = { ...toForm(undefined, '/mnt/x'), transfers: 33 };
  assert.equal(validate(form).transfers, 'Must be a whole number from 1 to 32');
});

test('rc_pass is sent only when typed; mount_path never rides in the rclone payload', () => {
  const form = toForm({ ...RCLONE_DEFAULTS, rc_pass_set: true }, '/mnt/spool');
  assert.equal('rc_pass' in toPayload(form), false);
  assert.equal('rc_pass' in toPayload({ ...form, rc_pass: '   ' }), false);
  assert.equal(toPayload({ ...form, rc_pass: 'secret' }).rc_pass, 'secret');
  assert.equal('mount_path' in toPayload(form), false);
  assert.equal('rc_pass_set' in toPayload(form), false);
});

test('option maps round-trip through key=value lines with their types', () => {
  const form = toForm(
    {
      ...RCLONE_DEFAULTS,
      rc_pass_set: false,
      mount_options: { 'no-seek': true, 'max-read-ahead': 131072, name: 'x=y' },
    },
    '/m',
  );
  assert.equal(form.mount_options, 'no-seek=true\nmax-read-ahead=131072\nname=x=y');
  assert.deepEqual(toPayload(form).mount_options, { 'no-seek': true, 'max-read-ahead': 131072, name: 'x=y' });
  assert.deepEqual(parseOptions('bad line\n=v\n# comment\n\nok=1').errors, [
    'Line 1: expected key=value',
    'Line 2: expected key=value',
  ]);
});

test('sizes, durations, umask, URL and mount path are checked like the server does', () => {
  const errors = validate({
    ...toForm(undefined, 'relative/path'),
    buffer_size: '32 megs',
    timeout: '10 minutes',
    umask: '999',
    rc_url: 'ftp://x',
  });
  assert.deepEqual(Object.keys(errors).sort(), ['buffer_size', 'mount_path', 'rc_url', 'timeout', 'umask']);
  assert.deepEqual(
    validate({
      ...toForm(undefined, '/m'),
      buffer_size: 'off',
      timeout: '1h30m',
      umask: '0022'.slice(1),
      rc_url: 'http://127.0.0.1:5572',
    }),
    {},
  );
});

test('the backend the panel greys out for: native by default, rclone with the RC on or backend=rclone', async () => {
  const { backendOf } = await import('./rcloneForm');
  assert.equal(backendOf(false, ''), 'native');
  assert.equal(backendOf(true, ''), 'rclone');
  assert.equal(backendOf(false, 'backend=rclone'), 'rclone');
  assert.equal(backendOf(true, 'backend=native'), 'native');
  assert.equal(backendOf(false, 'backend=nfs'), 'native', 'an unknown name is the server’s error to report');
});
