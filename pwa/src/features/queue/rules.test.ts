import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorTooltip, nzbFileError, scanLabel, scanPathError, scanProgress } from './rules';

test('upload checks of docs/console-contract.md §5: extension first, then 100 MB', () => {
  assert.equal(nzbFileError({ name: 'a.txt', size: 10 }), 'Only .nzb files are allowed');
  assert.equal(nzbFileError({ name: 'A.NZB', size: 10 }), undefined);
  assert.equal(nzbFileError({ name: 'big.nzb', size: 100 * 1024 * 1024 }), undefined);
  assert.equal(nzbFileError({ name: 'big.nzb', size: 100 * 1024 * 1024 + 1 }), 'File size must be less than 100MB');
});

test('scan path rules of docs/console-contract.md §5', () => {
  assert.equal(scanPathError('  '), 'Path is required');
  assert.equal(scanPathError('nzbs'), 'Path must be absolute (start with /)');
  assert.equal(scanPathError(' /srv/nzbs '), undefined);
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
