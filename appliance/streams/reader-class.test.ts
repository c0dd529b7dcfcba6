import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyReader, SCAN_BYTES, SUSTAINED_MS, type ReaderFacts } from './reader-class.js';

const GIB = 1024 ** 3;
const base: ReaderFacts = {
  size: 4 * GIB,
  openOffset: 0,
  bytesServed: 0,
  ageMs: 0,
  closed: false,
  recentFilesOfClient: 1,
};

test('a read from the start is a provisional player, settled once it reads more than a scanner would', () => {
  assert.deepEqual(classifyReader(base), { readerClass: 'player', settled: false });
  assert.deepEqual(classifyReader({ ...base, bytesServed: SCAN_BYTES + 1 }), { readerClass: 'player', settled: true });
});

test('a slow reader still reading after SUSTAINED_MS is a player', () => {
  const f = { ...base, bytesServed: 1024 * 1024, ageMs: SUSTAINED_MS };
  assert.deepEqual(classifyReader(f), { readerClass: 'player', settled: true });
});

test('an open in the tail of the file is a provisional scanner', () => {
  const f = { ...base, openOffset: 4 * GIB - 1024 * 1024, bytesServed: 65536 };
  assert.deepEqual(classifyReader(f), { readerClass: 'scanner', settled: false });
});

test('a seek into the middle is a provisional player', () => {
  assert.deepEqual(classifyReader({ ...base, openOffset: 2 * GIB }), { readerClass: 'player', settled: false });
});

test('a short read that closed quickly settles as a scanner; a long one as a player', () => {
  const short = { ...base, bytesServed: 1024 * 1024, ageMs: 2_000, closed: true };
  assert.deepEqual(classifyReader(short), { readerClass: 'scanner', settled: true });
  assert.deepEqual(classifyReader({ ...short, ageMs: SUSTAINED_MS + 1 }), { readerClass: 'player', settled: true });
});

test('ffprobe and MediaInfo user agents are scanners at open', () => {
  for (const ua of ['Lavf/60.3.100 ffprobe', 'MediaInfoLib - v23.10', 'Plex Media Scanner']) {
    assert.deepEqual(classifyReader({ ...base, userAgent: ua }), { readerClass: 'scanner', settled: true });
  }
  assert.equal(classifyReader({ ...base, userAgent: 'VLC/3.0.20 LibVLC/3.0.20' }).readerClass, 'player');
});

test('one client opening many files in a burst is a scanner, unless a file is read on at length', () => {
  const burst = { ...base, recentFilesOfClient: 3, bytesServed: 4096 };
  assert.deepEqual(classifyReader(burst), { readerClass: 'scanner', settled: false });
  assert.deepEqual(classifyReader({ ...burst, closed: true }), { readerClass: 'scanner', settled: true });
  assert.equal(classifyReader({ ...burst, bytesServed: SCAN_BYTES * 2 }).readerClass, 'player');
});

test('a small file read whole, however quickly, is a player', () => {
  const f = { ...base, size: 6 * 1024 * 1024, bytesServed: 6 * 1024 * 1024, ageMs: 400, closed: true };
  assert.deepEqual(classifyReader(f), { readerClass: 'player', settled: true });
  assert.equal(classifyReader({ ...f, bytesServed: 65536 }).readerClass, 'scanner');
});
