import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memoryLogger } from '../logging/logger.js';
import { built, Lifetime } from './lifetime.js';

test('stops run in the reverse order of building, each once, and one that throws does not keep the rest', async () => {
  const logger = memoryLogger();
  const life = new Lifetime(logger);
  const ran: string[] = [];
  const first = life.take(
    built(
      'first',
      () => void ran.push('first a'),
      () => void ran.push('first b'),
    ),
  );
  const second = life.take(
    built(
      'second',
      () => {
        throw new Error('second failed');
      },
      async () => void ran.push('second b'),
    ),
  );
  assert.deepEqual([first, second], ['first', 'second']);
  await life.stopAll();
  assert.deepEqual(ran, ['second b', 'first b', 'first a']);
  assert.ok(logger.lines.some((l) => l.includes('error while closing') && l.includes('second failed')));
  await life.stopAll();
  assert.deepEqual(ran, ['second b', 'first b', 'first a'], 'a second stopAll stops nothing again');
});
