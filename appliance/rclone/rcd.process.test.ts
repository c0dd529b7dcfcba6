import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULTS } from '../config/defaults.js';
import type { SpoolConfig } from '../config/index.js';
import { rcdArgs } from './rcd.process.js';

const config = (r: Partial<SpoolConfig['rclone']>): SpoolConfig => ({
  ...DEFAULTS,
  rclone: { ...DEFAULTS.rclone, ...r },
});

test('the rcd Spool starts: loopback on rc_port, cache_dir, log level, syslog only where /dev/log exists', () => {
  const c = config({ rc_port: 5599, cache_dir: '/data/rc-cache', rc_user: 'u', rc_pass: 'secret', log_level: 'DEBUG' });
  assert.deepEqual(rcdArgs(c, true), [
    'rcd',
    '--rc-addr=127.0.0.1:5599',
    '--config=/dev/null',
    '--cache-dir=/data/rc-cache',
    '--log-level=DEBUG',
    '--syslog',
  ]);
  assert.ok(!rcdArgs(c, false).includes('--syslog'), 'no /dev/log: rclone would exit on --syslog');
  assert.ok(!rcdArgs(config({ syslog: false }), true).includes('--syslog'));
  assert.ok(!rcdArgs(c, true).join(' ').includes('secret'), 'credentials go by environment');
  assert.ok(rcdArgs(config({ rc_user: '' }), true).includes('--rc-no-auth'));
  assert.ok(rcdArgs(config({ log_level: 'WARN' }), true).includes('--log-level=WARNING'));
});
