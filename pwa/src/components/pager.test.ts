import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pagerWindow, showingRange } from './pager';

test('pager windows of docs/console-contract.md §9', () => {
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
