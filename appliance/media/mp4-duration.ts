import type { ByteWindow } from './byte-window.js';

/** Top-level boxes walked before giving up (ftyp, free, mdat, moov: a handful in every muxer's output). */
const MAX_BOXES = 32;
/** moov children walked looking for mvhd (it is the first in practice). */
const MAX_MOOV_CHILDREN = 16;

/** True when the bytes start with an ISO BMFF `ftyp` box (MP4, M4V, MOV written as ISO). */
export const isMp4 = (head: Uint8Array): boolean =>
  head.length >= 8 && head[4] === 0x66 && head[5] === 0x74 && head[6] === 0x79 && head[7] === 0x70;

interface Box {
  type: string;
  start: number;
  dataStart: number;
  end: number;
}

/**
 * An MP4's duration in seconds from moov/mvhd (duration / timescale). The top-level boxes are walked by their sizes,
 * so a moov after the media data (not "fast start") costs one read at its offset, not a read of the file. Undefined
 * when there is no mvhd, it gives no duration (a fragmented file), or the boxes are not what they claim; never throws
 * on bad bytes.
 */
export async function mp4Duration(w: ByteWindow): Promise<number | undefined> {
  let at = 0;
  for (let i = 0; i < MAX_BOXES && at + 8 <= w.size; i++) {
    const box = await boxAt(w, at, w.size);
    if (!box) return undefined;
    if (box.type === 'moov') return moovDuration(w, box);
    at = box.end;
  }
  return undefined;
}

async function moovDuration(w: ByteWindow, moov: Box): Promise<number | undefined> {
  let at = moov.dataStart;
  for (let i = 0; i < MAX_MOOV_CHILDREN && at + 8 <= moov.end; i++) {
    const box = await boxAt(w, at, moov.end);
    if (!box) return undefined;
    if (box.type === 'mvhd') return mvhdDuration(await w.bytes(box.dataStart, Math.min(box.end - box.dataStart, 32)));
    at = box.end;
  }
  return undefined;
}

/** mvhd: version 0 has a 32-bit timescale and duration at 12 and 16, version 1 a 64-bit duration at 24. */
function mvhdDuration(b: Uint8Array): number | undefined {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const version = b[0];
  let timescale: number;
  let duration: number;
  if (version === 0 && b.length >= 20) {
    timescale = view.getUint32(12);
    duration = view.getUint32(16);
    if (duration === 0xffffffff) return undefined;
  } else if (version === 1 && b.length >= 32) {
    timescale = view.getUint32(20);
    const big = view.getBigUint64(24);
    if (big === 0xffffffffffffffffn) return undefined;
    duration = Number(big);
  } else {
    return undefined;
  }
  if (timescale === 0 || duration === 0) return undefined;
  return duration / timescale;
}

/** The box at `at` (its size 0 runs to `limit`; 1 has a 64-bit size), or undefined when it does not fit in `limit`. */
async function boxAt(w: ByteWindow, at: number, limit: number): Promise<Box | undefined> {
  const h = await w.bytes(at, Math.min(16, limit - at));
  const view = new DataView(h.buffer, h.byteOffset, h.byteLength);
  const size32 = view.getUint32(0);
  const type = String.fromCharCode(h[4]!, h[5]!, h[6]!, h[7]!);
  let size: number;
  let header = 8;
  if (size32 === 1) {
    if (h.length < 16) return undefined;
    size = Number(view.getBigUint64(8));
    header = 16;
  } else {
    size = size32 === 0 ? limit - at : size32;
  }
  if (!Number.isSafeInteger(size) || size < header || at + size > limit) return undefined;
  return { type, start: at, dataStart: at + header, end: at + size };
}
