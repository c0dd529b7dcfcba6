import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mulberry32 } from '../../tests/support/seeded-random.js';
import { sampleIndexes } from './availability-probe.js';

test('at the default 1%, a file of a few hundred articles is probed whole (2 of 28 missing cannot slip by)', () => {
  assert.deepEqual(
    sampleIndexes(28, 1),
    Array.from({ length: 28 }, (_, i) => i),
  );
  assert.equal(sampleIndexes(400, 1).length, 400);
});

test('at the default 1%, a release missing 1% of its articles is caught at least 99% of the time', () => {
  const random = mulberry32(13);
  for (const count of [1_400, 20_000, 68_000]) {
    const missingCount = Math.ceil(count / 100);
    let caught = 0;
    const trials = 600;
    for (let t = 0; t < trials; t++) {
      const missing = new Set<number>();
      // Scattered holes in one half of the trials, one run of holes (a broken-off post) in the other.
      if (t % 2 === 0) while (missing.size < missingCount) missing.add(Math.floor(random() * count));
      else {
        const start = Math.floor(random() * (count - missingCount));
        for (let i = 0; i < missingCount; i++) missing.add(start + i);
      }
      if (sampleIndexes(count, 1, random).some((i) => missing.has(i))) caught++;
    }
    assert.ok(caught / trials >= 0.99, `${count} articles: caught ${caught} of ${trials}`);
    const size = sampleIndexes(count, 1, random).length;
    assert.ok(size <= Math.max(500, Math.ceil(count / 100)) + 2, `${count} articles: ${size} probed`);
  }
});
