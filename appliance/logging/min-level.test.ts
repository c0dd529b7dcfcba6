import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memoryLogger, type LogLevel } from './logger.js';
import { withMinLevel } from './min-level.js';

test('a part with its own level: lines below it are dropped, read at every line, children included', () => {
  const base = memoryLogger();
  let level: LogLevel = 'warn';
  const log = withMinLevel(base.child('fuse'), () => level);
  log.info('mounted');
  log.warn('stale mount');
  log.child('rcd').debug('rclone chatter');
  level = 'debug';
  log.child('rcd').debug('rclone chatter');
  log.error('failed');
  const msgs = base.lines.map((l) => (JSON.parse(l) as { msg: string; scope: string }).msg);
  assert.deepEqual(msgs, ['stale mount', 'rclone chatter', 'failed']);
  assert.equal((JSON.parse(base.lines[1]!) as { scope: string }).scope, 'test.fuse.rcd');
});
