import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HealthRecord } from './healthApi';
import {
  cleanupCutoff,
  describeHours,
  detailsText,
  errorTip,
  fileName,
  manualCheckComplete,
  nextSort,
  retryLines,
} from './rules';

const record = (over: Partial<HealthRecord>): HealthRecord => ({
  id: 1,
  file_path: '/movies/A/A.mkv',
  source_nzb_path: 'A.nzb',
  status: 'healthy',
  last_error: null,
  error_details: null,
  retry_count: 0,
  max_retries: 2,
  repair_retry_count: 0,
  max_repair_retries: 3,
  last_checked: null,
  created_at: '2026-01-01T00:00:00Z',
  missing_ranges: [],
  checked_segments: 0,
  total_segments: 0,
  next_check: null,
  repaired_from: null,
  ...over,
});

test('retries: health line always, repair line when repair_triggered or repair retries above 0', () => {
  assert.deepEqual(retryLines(record({ retry_count: 1 })), ['H: 1/2']);
  assert.deepEqual(retryLines(record({ status: 'repair_triggered' })), ['H: 0/2', 'R: 0/3']);
  assert.deepEqual(retryLines(record({ status: 'corrupted', repair_retry_count: 2 })), ['H: 0/2', 'R: 2/3']);
});

test('cleanup cutoff is seven days back, ISO', () => {
  const now = Date.parse('2026-03-10T12:00:00.000Z');
  assert.equal(cleanupCutoff(now), '2026-03-03T12:00:00.000Z');
});

test('error tooltip cut at the given length', () => {
  assert.equal(errorTip('x'.repeat(50), 50), 'x'.repeat(50));
  assert.equal(errorTip('x'.repeat(51), 50), `${'x'.repeat(50)}...`);
  assert.equal(errorTip('y'.repeat(45), 40), `${'y'.repeat(40)}...`);
});

test('technical details: text as is, objects as JSON, nothing when empty', () => {
  assert.equal(detailsText(null), undefined);
  assert.equal(detailsText(''), undefined);
  assert.equal(detailsText('430 No such article'), '430 No such article');
  assert.equal(detailsText({ missing: 3 }), '{\n  "missing": 3\n}');
});

test('manual check needs both paths ', () => {
  assert.equal(manualCheckComplete({ file_path: '/a.mkv', source_nzb_path: ' ', priority: false }), false);
  assert.equal(manualCheckComplete({ file_path: '', source_nzb_path: 'a.nzb', priority: false }), false);
  assert.equal(manualCheckComplete({ file_path: '/a.mkv', source_nzb_path: 'a.nzb', priority: true }), true);
});

test('file name of a path', () => {
  assert.equal(fileName('/movies/A/A.mkv'), 'A.mkv');
  assert.equal(fileName('/movies/A/'), 'A');
});

test('sorting: same column flips, a new column starts A-Z for paths and newest first for dates', () => {
  const start = { sortBy: 'created_at' as const, sortOrder: 'desc' as const };
  assert.deepEqual(nextSort(start, 'created_at'), { sortBy: 'created_at', sortOrder: 'asc' });
  assert.deepEqual(nextSort(start, 'file_path'), { sortBy: 'file_path', sortOrder: 'asc' });
  assert.deepEqual(nextSort({ sortBy: 'file_path', sortOrder: 'asc' }, 'file_path'), {
    sortBy: 'file_path',
    sortOrder: 'desc',
  });
  assert.deepEqual(nextSort({ sortBy: 'file_path', sortOrder: 'asc' }, 'created_at'), {
    sortBy: 'created_at',
    sortOrder: 'desc',
  });
});

test('the schedule card shows minutes, hours, then days', () => {
  assert.deepEqual([0.75, 2.55, 24, 255].map(describeHours), ['45 min', '2.6 h', '24 h', '10.6 days']);
});
