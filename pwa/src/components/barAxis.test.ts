import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axisLabels, MIN_LABEL_SLOT_PX } from './barAxis';

const QUEUE = ['Queued', 'Processing', 'Completed', 'Failed'];

test('bar labels show under the axis when each bar has room', () => {
  assert.deepEqual(axisLabels(QUEUE, 1000), QUEUE);
  assert.deepEqual(axisLabels(QUEUE, MIN_LABEL_SLOT_PX * 4), QUEUE);
});

test('bar labels are left blank on a phone-width chart, where they would collide', () => {
  assert.deepEqual(axisLabels(QUEUE, 290), ['', '', '', '']);
  assert.deepEqual(axisLabels(['Healthy', 'Partial', 'Corrupted'], 230), ['', '', '']);
});

test('no bars, no labels', () => {
  assert.deepEqual(axisLabels([], 0), []);
});
