import { test } from 'node:test';
import assert from 'node:assert/strict';
import { queueFigures, successRateTone } from './derive';

test('queue figures follow docs/console-contract.md §3', () => {
  assert.deepEqual(queueFigures({ total_queued: 10, total_processing: 2, total_completed: 5, total_failed: 1 }), {
    pending: 2,
    done: 6,
    total: 8,
  });
  assert.equal(queueFigures({ total_queued: 0, total_processing: 1, total_completed: 0, total_failed: 0 }).pending, 0);
});

test('success rate colour thresholds', () => {
  assert.equal(successRateTone(95), 'success');
  assert.equal(successRateTone(94.9), 'warning');
  assert.equal(successRateTone(90), 'warning');
  assert.equal(successRateTone(89.9), 'error');
});
