import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  classifyReader,
  PLAY_RUN_BYTES,
  PROBE_JUMPS,
  SCAN_BYTES,
  SUSTAINED_MS,
  type ReaderFacts,
} from './reader-class.js';

const GIB = 1024 ** 3;
const KIB = 1024;
const base: ReaderFacts = {
  size: 4 * GIB,
  bytesServed: 0,
  ageMs: 0,
  closed: false,
  runBytes: 0,
  longestRun: 0,
  jumps: 0,
};

test('a read from the start is a provisional player, settled once it reads more than a scanner would', () => {
  assert.deepEqual(classifyReader(base), { readerClass: 'player', settled: false });
  assert.deepEqual(classifyReader({ ...base, bytesServed: SCAN_BYTES + 1 }), { readerClass: 'player', settled: true });
});

test('a slow reader still reading after SUSTAINED_MS is a player', () => {
  const f = { ...base, bytesServed: 1024 * KIB, ageMs: SUSTAINED_MS };
  assert.deepEqual(classifyReader(f), { readerClass: 'player', settled: true });
});

test('an open in the tail of the file (a range request for an index) is a provisional player: players read it too', () => {
  const f = { ...base, bytesServed: 65536, runBytes: 65536, longestRun: 65536 };
  assert.deepEqual(classifyReader(f), { readerClass: 'player', settled: false });
  assert.deepEqual(classifyReader({ ...f, ageMs: 300, closed: true }), { readerClass: 'scanner', settled: true });
});

test('a seek into the middle is a provisional player', () => {
  assert.deepEqual(classifyReader({ ...base, jumps: 1 }), { readerClass: 'player', settled: false });
});

test('a short read that closed quickly settles as a scanner; a long one as a player', () => {
  const short = { ...base, bytesServed: 1024 * KIB, ageMs: 2_000, closed: true };
  assert.deepEqual(classifyReader(short), { readerClass: 'scanner', settled: true });
  assert.deepEqual(classifyReader({ ...short, ageMs: SUSTAINED_MS + 1 }), { readerClass: 'player', settled: true });
});

test('ffprobe, MediaInfo and Plex scanner user agents (or process names) are scanners at open', () => {
  for (const ua of [
    'ffprobe',
    'Lavf/60.3.100 ffprobe',
    'MediaInfoLib - v23.10',
    'Plex Media Scanner',
    'Plex Media Scan',
  ]) {
    assert.deepEqual(classifyReader({ ...base, userAgent: ua }), { readerClass: 'scanner', settled: true });
  }
  assert.equal(classifyReader({ ...base, userAgent: 'VLC/3.0.20 LibVLC/3.0.20' }).readerClass, 'player');
});

test('a small file read whole, however quickly, is a player', () => {
  const f = { ...base, size: 6 * 1024 * KIB, bytesServed: 6 * 1024 * KIB, ageMs: 400, closed: true };
  assert.deepEqual(classifyReader(f), { readerClass: 'player', settled: true });
  assert.equal(classifyReader({ ...f, bytesServed: 65536 }).readerClass, 'scanner');
});

// ffprobe through a mount with no name to go by (pid 0): 32 KiB at the head, 32 KiB at the end of the media, the
// moov at the tail, then 32 KiB of first packets back at the head (strace of `ffprobe -show_format -show_streams`).
test('with no hint, a probe hopping head, tail and back in short reads is a scanner by its third jump', () => {
  const head = { ...base, bytesServed: 160 * KIB, runBytes: 160 * KIB, longestRun: 160 * KIB };
  assert.equal(classifyReader(head).readerClass, 'player', 'a head read alone is what a player does first');
  const tail = { ...head, bytesServed: 200 * KIB, runBytes: 40 * KIB, jumps: 1 };
  assert.equal(classifyReader(tail).readerClass, 'player', 'so is one jump to the index');
  const back = { ...tail, bytesServed: 330 * KIB, runBytes: 0, jumps: 2 };
  assert.equal(classifyReader(back).readerClass, 'player', 'and the jump back to play');
  const packets = { ...back, jumps: PROBE_JUMPS };
  assert.deepEqual(classifyReader(packets), { readerClass: 'scanner', settled: false });
  assert.deepEqual(classifyReader({ ...packets, ageMs: 800, closed: true }), { readerClass: 'scanner', settled: true });
});

test('a player reading on from a position is a player again, however it probed first', () => {
  const probed = { ...base, bytesServed: 400 * KIB, runBytes: 0, longestRun: 256 * KIB, jumps: PROBE_JUMPS };
  assert.equal(classifyReader(probed).readerClass, 'scanner');
  const playing = { ...probed, bytesServed: 400 * KIB + PLAY_RUN_BYTES, runBytes: PLAY_RUN_BYTES };
  assert.deepEqual(classifyReader(playing), { readerClass: 'player', settled: false });
  // a player who scrubs (jumps after long runs) is not a probe
  const scrubbing = { ...base, bytesServed: 6 * 1024 * KIB, runBytes: 4096, longestRun: 3 * PLAY_RUN_BYTES, jumps: 5 };
  assert.equal(classifyReader(scrubbing).readerClass, 'player');
});
