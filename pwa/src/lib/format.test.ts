import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shortenMiddle } from './format';

test('middle shortening keeps both ends and the length limit', () => {
  const path = '/very/long/directory/name/with/many/parts/Some.Release.Name.2024.1080p.nzb';
  const short = shortenMiddle(path, 40);
  assert.equal(short.length, 40);
  assert.ok(short.startsWith('/very/long'));
  assert.ok(short.endsWith('1080p.nzb'));
  assert.ok(short.includes('…'));
  assert.equal(shortenMiddle('short.nzb', 40), 'short.nzb');
});
