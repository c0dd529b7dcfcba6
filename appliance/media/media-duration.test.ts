import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ffprobeDuration, makeMedia, type MediaKind } from '../../tests/support/media/ffmpeg.js';
import { PROBE_BUDGET_BYTES, type MediaBytes } from './byte-window.js';
import { isMediaName, mediaDuration } from './media-duration.js';

/** A file in memory that counts what is read of it. */
function bytesOf(buf: Uint8Array, size = buf.length) {
  const reads: { offset: number; length: number }[] = [];
  const src: MediaBytes = {
    size,
    read(offset, length) {
      reads.push({ offset, length });
      const out = new Uint8Array(length);
      out.set(buf.subarray(offset, Math.min(buf.length, offset + length)));
      return Promise.resolve(out);
    },
  };
  return { src, reads };
}

for (const kind of ['mkv', 'mp4-faststart', 'mp4-tail'] as MediaKind[]) {
  test(`${kind} written by ffmpeg: the duration ffprobe reads`, async () => {
    const file = makeMedia(kind, 3);
    const { src } = bytesOf(file);
    const seconds = await mediaDuration(src);
    assert.ok(seconds !== undefined, 'a duration');
    assert.ok(Math.abs(seconds - ffprobeDuration(file, kind)) < 0.05, `${seconds} vs ffprobe`);
  });
}

test('an MP4 whose moov follows a large mdat is read at the moov, not through the media data', async () => {
  const file = makeMedia('mp4-tail', 20, { fps: 25, size: '320x240' });
  assert.ok(file.length > 200_000, 'mdat larger than the head');
  const head = file.subarray(0, 16 * 1024);
  const { src, reads } = bytesOf(file);
  const seconds = await mediaDuration(src, head);
  assert.ok(seconds !== undefined && Math.abs(seconds - ffprobeDuration(file, 'mp4-tail')) < 0.05);
  assert.ok(reads.length >= 1, 'moov lies past the head');
  assert.ok(
    reads.every((r) => r.offset > file.length - 64 * 1024 || r.offset < 16 * 1024),
    JSON.stringify(reads),
  );
});

test('with the head given, a Matroska file needs no read', async () => {
  const file = makeMedia('mkv', 2);
  const { src, reads } = bytesOf(file);
  assert.ok((await mediaDuration(src, file.subarray(0, 16 * 1024))) !== undefined);
  assert.deepEqual(reads, []);
});

test('hostile and truncated input gives no duration and never throws', async () => {
  const mkv = makeMedia('mkv', 2);
  const mp4 = makeMedia('mp4-tail', 2);
  const cases: Uint8Array[] = [
    Buffer.alloc(0),
    Buffer.from('not a media file at all, just text'),
    mkv.subarray(0, 40), // header only
    mp4.subarray(0, mp4.length - 100), // moov cut short
  ];
  // every byte count of the head cut off
  for (let n = 0; n < 300; n += 7) cases.push(mkv.subarray(0, n), mp4.subarray(0, n));
  // an mdat claiming a 64-bit size far past the end
  const huge = Buffer.from(mp4);
  const mdatAt = huge.indexOf('mdat') - 4;
  huge.writeUInt32BE(1, mdatAt);
  cases.push(
    Buffer.concat([huge.subarray(0, mdatAt + 8), Buffer.from([0x7f, 0, 0, 0, 0, 0, 0, 0]), huge.subarray(mdatAt + 16)]),
  );
  // an EBML header whose size is all but infinite
  const bigEbml = Buffer.from(mkv);
  bigEbml[4] = 0x01;
  bigEbml.fill(0x7f, 5, 12);
  cases.push(bigEbml);
  // random bytes behind each magic
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff;
  for (let i = 0; i < 50; i++) {
    const junk = Buffer.from(Array.from({ length: 4096 }, rnd));
    cases.push(Buffer.concat([mkv.subarray(0, 4), junk]), Buffer.concat([mp4.subarray(0, 8), junk]));
  }
  for (const c of cases) {
    const { src, reads } = bytesOf(c);
    const d = await mediaDuration(src);
    assert.ok(d === undefined || (Number.isFinite(d) && d > 0), `${d}`);
    assert.ok(reads.reduce((n, r) => n + r.length, 0) <= PROBE_BUDGET_BYTES);
  }
  // a file that claims to be far bigger than the bytes there: reads past the real end come back zero, no duration
  assert.equal(await mediaDuration(bytesOf(mkv.subarray(0, 30), 10 ** 12).src), undefined);
});

test('a failed read (an outage) rejects rather than passing for "no duration"', async () => {
  const file = makeMedia('mp4-tail', 20, { fps: 25, size: '320x240' });
  const src: MediaBytes = { size: file.length, read: () => Promise.reject(new Error('provider down')) };
  await assert.rejects(mediaDuration(src, file.subarray(0, 16 * 1024)), /provider down/);
});

test('media names', () => {
  assert.ok(isMediaName('Movie.2020.MKV'));
  assert.ok(isMediaName('a.b.mp4'));
  assert.ok(!isMediaName('movie.nfo'));
  assert.ok(!isMediaName('mkv'));
});
