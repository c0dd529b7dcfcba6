import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DEFAULTS } from '../config/defaults.js';
import { mountBackend, RCLONE_ONLY_KEYS } from './mount-backend.wire.js';

// What the native mount reads: a file outside the rclone backend and the config domain that names the key as a
// property and the rclone section (as the config-key audit counts a read, appliance/config/keys-read.test.ts).
const root = fileURLToPath(new URL('../', import.meta.url));
const nativeFiles = readdirSync(root, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !/^(rclone|config)\//.test(f))
  .map((f) => readFileSync(join(root, f), 'utf8'))
  .filter((text) => /[.'"`]rclone\b/.test(text));
const readByNative = (key: string) => nativeFiles.some((text) => new RegExp(`\\.${key}\\b`).test(text));

test('the keys the console greys out for the native mount are rclone keys the native mount never reads', () => {
  const rcloneKeys = Object.keys(DEFAULTS.rclone);
  for (const key of RCLONE_ONLY_KEYS) {
    assert.ok(rcloneKeys.includes(key), `${key} is an rclone key`);
    assert.equal(readByNative(key), false, `${key} is read outside appliance/rclone: it is not rclone-only`);
  }
});

test('every other mount setting is read by the native mount', () => {
  const general = new Set(['rc_enabled', 'rc_url', 'rc_port', 'rc_user', 'rc_pass', 'rc_options', 'mount_enabled']);
  const native = Object.keys(DEFAULTS.rclone).filter(
    (k) => !general.has(k) && !(RCLONE_ONLY_KEYS as readonly string[]).includes(k),
  );
  assert.ok(native.length >= 9, native.join(', '));
  for (const key of native)
    assert.ok(readByNative(key), `nothing outside appliance/rclone reads ${key}: grey it out too`);
});

test('the backend: mount_options.backend wins, else rclone when the RC is enabled, else native', () => {
  assert.equal(mountBackend({ rc_enabled: false, mount_options: {} }), 'native');
  assert.equal(mountBackend({ rc_enabled: true, mount_options: {} }), 'rclone');
  assert.equal(mountBackend({ rc_enabled: true, mount_options: { backend: 'Native' } }), 'native');
  assert.throws(() => mountBackend({ rc_enabled: false, mount_options: { backend: 'nfs' } }), /native or rclone/);
});
