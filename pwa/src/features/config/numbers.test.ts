import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NUMBER_RULES, parseWithFallback, rangeError } from './numbers';

test('invalid numeric input falls back to the values of docs/console-contract.md §5', () => {
  assert.equal(parseWithFallback('', NUMBER_RULES['webdav.port']), 0);
  assert.equal(parseWithFallback('abc', NUMBER_RULES['streaming.max_cache_size_mb']), 1);
  assert.equal(parseWithFallback('', NUMBER_RULES['streaming.max_download_workers']), 1);
  assert.equal(parseWithFallback('x', NUMBER_RULES['import.max_processor_workers']), 1);
  assert.equal(parseWithFallback('', NUMBER_RULES['import.queue_processing_interval_seconds']), 5);
  assert.equal(parseWithFallback('42', NUMBER_RULES['import.queue_processing_interval_seconds']), 42);
});

test('ranges are inclusive and reject out-of-range values', () => {
  const cache = NUMBER_RULES['streaming.max_cache_size_mb'];
  assert.equal(rangeError(1, cache), undefined);
  assert.equal(rangeError(1024, cache), undefined);
  assert.equal(rangeError(1025, cache), 'Must be a whole number from 1 to 1024');
  assert.equal(rangeError(0, NUMBER_RULES['webdav.port']), 'Must be a whole number from 1 to 65535');
  assert.equal(rangeError(0, NUMBER_RULES['health.max_retries']), undefined);
  assert.equal(rangeError(4, NUMBER_RULES['health.check_interval_seconds']), 'Must be a whole number from 5 to 86400');
});
