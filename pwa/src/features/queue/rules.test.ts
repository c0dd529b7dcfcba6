import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  errorTooltip,
  nzbFileError,
  pagerWindow,
  scanLabel,
  scanPathError,
  scanProgress,
  shortenMiddle,
  showingRange,
} from './rules';

test('upload checks of spec §5: extension first, then 100 MB', () => {
  assert.equal(nzbFileError({ name: 'a.txt', size: 10 }), 'Only .nzb files are allowed');
  assert.equal(nzbFileError({ name: 'A.NZB', size: 10 }), undefined);
  assert.equal(nzbFileError({ name: 'big.nzb', size: 100 * 1024 * 1024 }), undefined);
  assert.equal(nzbFileError({ name: 'big.nzb', size: 100 * 1024 * 1024 + 1 }), 'File size must be less than 100MB');
});

test('scan path rules of spec §5', () => {
  assert.equal(scanPathError('  '), 'Path is required');
  assert.equal(scanPathError('nzbs'), 'Path must be absolute (start with /)');
  assert.equal(scanPathError(' /srv/nzbs '), undefined);
});

test('middle shortening keeps both ends and the length limit', () => {
  const path = '/very/long/directory/name/with/many/parts/Some.Release.Name.2024.1080p.nzb';
  const short = shortenMiddle(path, 40);
  assert.equal(short.length, 40);
  assert.ok(short.startsWith('/very/long'));
  assert.ok(short.endsWith('1080p.nzb'));
  assert.ok(short.includes('…'));
  assert.equal(shortenMiddle('short.nzb', 40), 'short.nzb');
});

test('error tooltip is cut at 200 characters', () => {
  assert.equal(errorTooltip('x'.repeat(200)), 'x'.repeat(200));
  assert.equal(errorTooltip('x'.repeat(201)), `${'x'.repeat(200)}...`);
});

test('scan progress is capped at 100 % and label follows status then error', () => {
  assert.equal(scanProgress(0, 0), 0);
  assert.equal(scanProgress(4, 1), 25);
  assert.equal(scanProgress(2, 5), 100);
  assert.equal(scanLabel({ status: 'scanning', last_error: 'x' }), 'Scanning');
  assert.equal(scanLabel({ status: 'canceling', last_error: null }), 'Canceling...');
  assert.equal(scanLabel({ status: 'idle', last_error: 'boom' }), 'Error');
  assert.equal(scanLabel({ status: 'idle', last_error: null }), 'Idle');
});

test('pager windows of spec §9', () => {
  assert.deepEqual(pagerWindow(1, 1), [1]);
  assert.deepEqual(pagerWindow(3, 7), [1, 2, 3, 4, 5, 6, 7]);
  assert.deepEqual(pagerWindow(2, 20), [1, 2, 3, 4, 5, 'ellipsis-end', 20]);
  assert.deepEqual(pagerWindow(10, 20), [1, 'ellipsis-start', 9, 10, 11, 'ellipsis-end', 20]);
  assert.deepEqual(pagerWindow(18, 20), [1, 'ellipsis-start', 16, 17, 18, 19, 20]);
});

test('showing range text', () => {
  assert.equal(showingRange(1, 20, 45), 'Showing 1-20 of 45 results');
  assert.equal(showingRange(3, 20, 45), 'Showing 41-45 of 45 results');
});
