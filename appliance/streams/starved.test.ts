import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isStarved, STARVE_WAIT_MS, type StarveFacts } from './starved.js';

const MIB = 1024 * 1024;
// a player 30 s into a 4 GiB file playing at 1 MiB/s, getting 0.5 MiB/s and waiting on the network
const starving: StarveFacts = {
  readerClass: 'player',
  mediaBitrateBps: MIB,
  rateBps: MIB / 2,
  offset: 100 * MIB,
  size: 4096 * MIB,
  ageMs: 30_000,
  windowMs: 5_000,
  waitedMs: 2_500,
};

test('a player getting less than the bitrate while it waits for the network is starved', () => {
  assert.equal(isStarved(starving), true);
  assert.equal(isStarved({ ...starving, rateBps: 0 }), true, 'nothing arrives at all');
  assert.equal(isStarved({ ...starving, waitedMs: STARVE_WAIT_MS }), true, 'at the wait threshold');
});

test('at or above the bitrate it is not', () => {
  assert.equal(isStarved({ ...starving, rateBps: MIB }), false);
  assert.equal(isStarved({ ...starving, rateBps: 3 * MIB }), false);
});

test('a paused player, or one whose buffer is full, waits for nothing: not starved however slow', () => {
  assert.equal(isStarved({ ...starving, rateBps: 0, waitedMs: 0 }), false);
  assert.equal(isStarved({ ...starving, waitedMs: STARVE_WAIT_MS - 1 }), false);
});

test('not before a whole window, not at the end of the file, not without a bitrate, never a scanner', () => {
  assert.equal(isStarved({ ...starving, ageMs: 4_999 }), false);
  assert.equal(isStarved({ ...starving, offset: starving.size }), false);
  assert.equal(isStarved({ ...starving, mediaBitrateBps: null }), false);
  assert.equal(isStarved({ ...starving, mediaBitrateBps: 0 }), false);
  assert.equal(isStarved({ ...starving, readerClass: 'scanner' }), false);
});
