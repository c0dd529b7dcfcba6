import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { QueueRecord } from '../importer/index.js';
import { historySlot, queueStatus } from './sabnzbd.slots.js';

const item = (over: Partial<QueueRecord>): QueueRecord => ({
  id: 7,
  nzbPath: 'Film.2024.nzb',
  name: 'Film.2024',
  category: 'movies',
  priority: 0,
  status: 'pending',
  targetPath: null,
  fileSize: 1000,
  retryCount: 0,
  maxRetries: 3,
  errorMessage: null,
  nextAttemptAt: null,
  contentHash: 'h',
  createdAt: 1_000,
  updatedAt: 2_000,
  startedAt: null,
  completedAt: null,
  ...over,
});

const statusOf = (r: QueueRecord, readable: boolean) => historySlot(r, { nzoId: 'SABnzbd_nzo_x_7', readable }).status;

test('history states: repairing reads Repairing (the arrs wait), then Verifying/Completed, or Failed', () => {
  assert.equal(statusOf(item({ status: 'repairing', targetPath: '/complete/movies/Film.2024' }), false), 'Repairing');
  assert.equal(statusOf(item({ status: 'repairing' }), true), 'Repairing', 'never Completed while repairing');
  const done = item({ status: 'completed', storagePath: '/mnt/complete/movies/Film.2024', completedAt: 3_000 });
  assert.equal(statusOf(done, false), 'Verifying');
  assert.equal(statusOf(done, true), 'Completed');
  assert.equal(statusOf(item({ status: 'failed', errorMessage: 'PAR2 repair not possible: x' }), false), 'Failed');
});

test('a repairing job has no storage and no fail message yet', () => {
  const slot = historySlot(item({ status: 'repairing', storagePath: null }), { nzoId: 'n', readable: false });
  assert.equal(slot.storage, '');
  assert.equal(slot.fail_message, '');
});

test('queue states: processing is Downloading, the rest Queued or Paused', () => {
  assert.equal(queueStatus(item({ status: 'processing' })), 'Downloading');
  assert.equal(queueStatus(item({ status: 'pending' })), 'Queued');
  assert.equal(queueStatus(item({ status: 'pending', paused: true })), 'Paused');
});
