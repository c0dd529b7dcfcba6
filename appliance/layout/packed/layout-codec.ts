import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import type { FileLayout, LayoutSegment } from '../layout.types.js';
import { ByteReader, ByteWriter, LayoutCodecError } from './bytes.js';
import { readIds, writeIds } from './id-column.js';
import { readInts, writeInts } from './int-column.js';
import { readMeta, writeMeta } from './layout-meta.js';

/**
 * The stored form of a layout (docs/architecture.md, "The one idea"): columns instead of one object per segment.
 *
 *   "SPL2" | flags (1: the rest is brotli) | size | segment count | file facts (layout-meta.ts) | starts mode |
 *   lengths (| starts | ends) | articleOffset, articleSize, number, bytes, post (each: which segments have it,
 *   then its values) | message-ids (id-column.ts)
 *
 * Number columns (int-column.ts) store a constant or near-constant column in a few bytes (every article the same
 * size, `number=` counting up), so what a file costs is mostly its message-ids, stored against their template.
 * Decoding gives back the very layout that was encoded (same fields present, same values).
 */
const MAGIC = [0x53, 0x50, 0x4c, 0x32];
const BROTLI = 1;
/** Above the NZB parser's 2M segments per NZB: a length past this is damage, not a file. */
export const MAX_SEGMENTS = 1 << 22;

const TILED = 0; // segment i starts where i - 1 ends, the first at 0: only the lengths are stored
const STARTS = 1; // starts and lengths
const STARTS_ENDS = 2; // starts and ends as they are (numbers that are not whole)

const OPTIONAL = ['articleOffset', 'articleSize', 'number', 'bytes', 'post'] as const;
const NONE = 0;
const ALL = 1;
const SOME = 2;

export function isPackedLayout(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array && value.length >= 5 && MAGIC.every((b, i) => value[i] === b);
}

export function encodeLayout(layout: FileLayout): Uint8Array {
  const body = new ByteWriter();
  const segs = layout.segments;
  const n = segs.length;
  if (n > MAX_SEGMENTS) throw new RangeError(`a layout of ${n} segments exceeds ${MAX_SEGMENTS}`);
  writeNumber(body, layout.size);
  body.uint(n);
  writeMeta(body, layout);
  const starts = segs.map((s) => s.start);
  const ends = segs.map((s) => s.end);
  const whole = [...starts, ...ends].every((v) => Number.isSafeInteger(v));
  const tiled = whole && segs.every((s, i) => s.start === (i === 0 ? 0 : segs[i - 1]!.end));
  if (!whole) {
    body.byte(STARTS_ENDS);
    writeInts(body, starts);
    writeInts(body, ends);
  } else {
    body.byte(tiled ? TILED : STARTS);
    writeInts(
      body,
      segs.map((s) => s.end - s.start),
    );
    if (!tiled) writeInts(body, starts);
  }
  for (const field of OPTIONAL) {
    const present = segs.map((s) => s[field] !== undefined);
    const count = present.filter(Boolean).length;
    body.byte(count === 0 ? NONE : count === n ? ALL : SOME);
    if (count > 0 && count < n) writeInts(body, present.map(Number));
    if (count > 0)
      writeInts(
        body,
        segs.filter((s) => s[field] !== undefined).map((s) => s[field]!),
      );
  }
  writeIds(
    body,
    segs.map((s) => s.messageId),
  );
  const plain = body.finish();
  const squeezed = brotliCompressSync(plain, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: plain.length },
  });
  const useBrotli = squeezed.length < plain.length;
  const out = Buffer.allocUnsafe(5 + (useBrotli ? squeezed.length : plain.length));
  out.set(MAGIC, 0);
  out[4] = useBrotli ? BROTLI : 0;
  out.set(useBrotli ? squeezed : plain, 5);
  return out;
}

/** The layout `bytes` hold; throws LayoutCodecError (never anything else) for bytes that are not one. */
export function decodeLayout(bytes: Uint8Array): FileLayout {
  if (!isPackedLayout(bytes)) throw new LayoutCodecError('not a packed layout (no SPL2 header)');
  const flags = bytes[4]!;
  if (flags & ~BROTLI) throw new LayoutCodecError(`unknown flags ${flags}`);
  let body = bytes.subarray(5);
  if (flags & BROTLI) {
    try {
      body = brotliDecompressSync(body, { maxOutputLength: 256 * 1024 * 1024 });
    } catch (e) {
      throw new LayoutCodecError(`the compressed body does not decompress (${(e as Error).message})`);
    }
  }
  try {
    return decodeBody(new ByteReader(body));
  } catch (e) {
    if (e instanceof LayoutCodecError) throw e;
    throw new LayoutCodecError((e as Error).message);
  }
}

function decodeBody(r: ByteReader): FileLayout {
  const size = readNumber(r);
  const n = r.count(MAX_SEGMENTS, 'segment count');
  const layout = readMeta(r, size);
  const mode = r.byte();
  let starts: Float64Array;
  let ends: Float64Array;
  if (mode === STARTS_ENDS) {
    starts = readInts(r, n);
    ends = readInts(r, n);
  } else if (mode === TILED || mode === STARTS) {
    const lengths = readInts(r, n);
    starts = mode === STARTS ? readInts(r, n) : new Float64Array(n);
    ends = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      if (mode === TILED && i > 0) starts[i] = ends[i - 1]!;
      ends[i] = starts[i]! + lengths[i]!;
    }
  } else throw new LayoutCodecError(`unknown starts mode ${mode}`);
  const [offsets, sizes, numbers, encoded, posts] = OPTIONAL.map(() => readOptional(r, n)) as Optional[];
  const ids = readIds(r, n);
  if (r.remaining !== 0) throw new LayoutCodecError(`${r.remaining} bytes after the last column`);
  const postCount = layout.posts?.length ?? 0;
  for (let i = 0; i < n; i++) {
    const p = posts!.values[i]!;
    if (posts!.has(i) && !(Number.isInteger(p) && p >= 0 && p < postCount)) {
      throw new LayoutCodecError(`segment ${i} names post ${p} of ${postCount}`);
    }
  }
  const segments = new Array<LayoutSegment>(n);
  if (
    offsets!.has === nobody &&
    sizes!.has === nobody &&
    [numbers, encoded, posts].every((o) => o!.has === everybody)
  ) {
    // a posted file as the importer writes it: one object shape for every segment
    const [num, byt, pst] = [numbers!.values, encoded!.values, posts!.values];
    for (let i = 0; i < n; i++) {
      segments[i] = {
        messageId: ids[i]!,
        start: starts[i]!,
        end: ends[i]!,
        number: num[i]!,
        bytes: byt[i]!,
        post: pst[i]!,
      };
    }
  } else {
    for (let i = 0; i < n; i++) {
      const s: LayoutSegment = { messageId: ids[i]!, start: starts[i]!, end: ends[i]! };
      if (offsets!.has(i)) s.articleOffset = offsets!.values[i]!;
      if (sizes!.has(i)) s.articleSize = sizes!.values[i]!;
      if (numbers!.has(i)) s.number = numbers!.values[i]!;
      if (encoded!.has(i)) s.bytes = encoded!.values[i]!;
      if (posts!.has(i)) s.post = posts!.values[i]!;
      segments[i] = s;
    }
  }
  layout.segments = segments;
  return layout;
}

/** An optional field: its value per segment, where `has` says the segment has one. */
interface Optional {
  has: (i: number) => boolean;
  values: Float64Array;
}

const nobody = () => false;
const everybody = () => true;

function readOptional(r: ByteReader, n: number): Optional {
  const presence = r.byte();
  if (presence === NONE) return { has: nobody, values: new Float64Array(n) };
  if (presence === ALL) return { has: everybody, values: readInts(r, n) };
  if (presence !== SOME) throw new LayoutCodecError(`unknown presence ${presence}`);
  const flags = readInts(r, n);
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (flags[i] !== 0 && flags[i] !== 1) throw new LayoutCodecError(`presence flag ${flags[i]}`);
    count += flags[i]!;
  }
  const present = readInts(r, count);
  const values = new Float64Array(n);
  for (let i = 0, k = 0; i < n; i++) if (flags[i] === 1) values[i] = present[k++]!;
  return { has: (i) => flags[i] === 1, values };
}

function writeNumber(w: ByteWriter, v: number): void {
  if (Number.isSafeInteger(v) && v >= 0) {
    w.byte(0);
    w.uint(v);
  } else {
    w.byte(1);
    w.f64(v);
  }
}

function readNumber(r: ByteReader): number {
  const kind = r.byte();
  if (kind === 0) return r.uint();
  if (kind === 1) return r.f64();
  throw new LayoutCodecError(`unknown number kind ${kind}`);
}
