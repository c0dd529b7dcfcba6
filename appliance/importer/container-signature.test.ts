import assert from 'node:assert/strict';
import { test } from 'node:test';
import { containerMismatch, describeHead, isCheckedMedia } from './container-signature.js';

const bytes = (...parts: (number[] | string)[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
const pad = (b: Buffer, n = 1024) => Buffer.concat([b, Buffer.alloc(Math.max(0, n - b.length), 0x11)]);

function packets(size: number, lead = 0): Buffer {
  const b = Buffer.alloc(size * 4, 0xff);
  for (let i = 0; i < 4; i++) b[i * size + lead] = 0x47;
  return b;
}

const HEADS = {
  mkv: pad(bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01])),
  mp4: pad(bytes([0, 0, 0, 0x20], 'ftypisom', [0, 0, 2, 0], 'isomiso2avc1mp41')),
  mov: pad(bytes([0, 0, 0, 8], 'wide', [0, 0, 0, 0], 'mdat')),
  avi: pad(bytes('RIFF', [0x10, 0x20, 0, 0], 'AVI LIST')),
  ts: packets(188),
  m2ts: packets(192, 4),
  mpg: pad(bytes([0x00, 0x00, 0x01, 0xba, 0x44])),
  ogg: pad(bytes('OggS', [0, 2])),
  flv: pad(bytes('FLV', [1, 5])),
  wmv: pad(bytes([0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11, 0xa6, 0xd9, 0x00, 0xaa, 0x00, 0x62, 0xce, 0x6c])),
};

test('each container passes under its own extensions', () => {
  const cases: [string, Buffer][] = [
    ['Film.mkv', HEADS.mkv],
    ['Film.WEBM', HEADS.mkv],
    ['Film.mp4', HEADS.mp4],
    ['Film.m4v', HEADS.mp4],
    ['Film.mov', HEADS.mov],
    ['Film.avi', HEADS.avi],
    ['Film.ts', HEADS.ts],
    ['Film.m2ts', HEADS.m2ts],
    ['Film.ts', HEADS.m2ts],
    ['Film.mpg', HEADS.mpg],
    ['Film.mpg', HEADS.ts],
    ['Film.ogv', HEADS.ogg],
    ['Film.flv', HEADS.flv],
    ['Film.wmv', HEADS.wmv],
  ];
  for (const [name, head] of cases) assert.equal(containerMismatch(name, head), null, name);
});

test('a file whose bytes are something else fails with what was found', () => {
  const exe = pad(bytes('MZ', [0x90, 0x00, 0x03]));
  assert.equal(containerMismatch('Film.mkv', exe), 'content does not match .mkv (found a Windows executable (MZ))');
  assert.equal(containerMismatch('Film.mkv', HEADS.mp4), 'content does not match .mkv (found MP4/QuickTime)');
  assert.equal(containerMismatch('Film.mp4', HEADS.avi), 'content does not match .mp4 (found AVI (RIFF))');
  assert.equal(
    containerMismatch('Film.avi', bytes('RIFF', [0, 0, 0, 0], 'WAVE')),
    'content does not match .avi (found unknown bytes 52 49 46 46 00 00 00 00)',
  );
  assert.equal(
    containerMismatch('Film.ts', packets(190)),
    'content does not match .ts (found unknown bytes 47 ff ff ff ff ff ff ff)',
  );
  assert.match(containerMismatch('Film.mkv', Buffer.alloc(1024)) ?? '', /found zeros/);
  assert.match(containerMismatch('Film.mkv', bytes('Password: see the NFO\n')) ?? '', /found text/);
  assert.match(containerMismatch('Film.mkv', bytes('Rar!', [0x1a, 7, 1, 0])) ?? '', /found a RAR archive/);
  // Random bytes that happen to look like nothing known are reported as bytes.
  assert.match(
    containerMismatch('Film.mkv', bytes([0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4])) ?? '',
    /unknown bytes de ad be ef/,
  );
});

test('files that are not media containers are not checked', () => {
  for (const name of ['Film.srt', 'Film.nfo', 'Film.iso', 'README', 'Film.mkv.par2'])
    assert.equal(containerMismatch(name, bytes('MZ')), null, name);
  assert.equal(isCheckedMedia('a/b/Film.MKV'), true);
  assert.equal(isCheckedMedia('Film.srt'), false);
  assert.equal(describeHead(HEADS.ts), 'MPEG transport stream');
});
