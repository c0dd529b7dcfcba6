import { ProbeGiveUp, type ByteWindow } from './byte-window.js';

const EBML_HEADER = 0x1a45dfa3;
const SEGMENT = 0x18538067;
const INFO = 0x1549a966;
const CLUSTER = 0x1f43b675;
const TIMECODE_SCALE = 0x2ad7b1;
const DURATION = 0x4489;
/** Nanoseconds per tick when Info carries no TimecodeScale (the Matroska default). */
const DEFAULT_TIMECODE_SCALE = 1_000_000;
/** Segment children walked before giving up (SeekHead, Void, Info come first in every muxer's output). */
const MAX_CHILDREN = 32;
/** An Info element larger than this is not one (they are tens of bytes to a few KiB). */
const MAX_INFO_BYTES = 64 * 1024;

/** An EBML element's header: its id, where its data starts, and its size (undefined: unknown size). */
interface ElementHeader {
  id: number;
  dataStart: number;
  size: number | undefined;
}

/** True when the bytes start with the EBML header's id (Matroska, WebM). */
export const isMatroska = (head: Uint8Array): boolean =>
  head.length >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3;

/**
 * A Matroska (or WebM) file's duration in seconds: Segment → Info → Duration × TimecodeScale (ns). Undefined when the
 * file does not say (a live recording) or its headers are not what they claim; never throws on bad bytes.
 */
export async function matroskaDuration(w: ByteWindow): Promise<number | undefined> {
  const header = await elementAt(w, 0);
  if (header.id !== EBML_HEADER || header.size === undefined) return undefined;
  const segment = await elementAt(w, header.dataStart + header.size);
  if (segment.id !== SEGMENT) return undefined;
  const end = segment.size === undefined ? w.size : Math.min(w.size, segment.dataStart + segment.size);
  let at = segment.dataStart;
  for (let i = 0; i < MAX_CHILDREN && at < end; i++) {
    const child = await elementAt(w, at);
    if (child.id === CLUSTER || child.size === undefined) return undefined;
    if (child.id === INFO) {
      if (child.size > MAX_INFO_BYTES) return undefined;
      return infoDuration(await w.bytes(child.dataStart, child.size));
    }
    at = child.dataStart + child.size;
  }
  return undefined;
}

/** Duration × TimecodeScale / 1e9 from an Info element's data. */
function infoDuration(info: Uint8Array): number | undefined {
  let scale = DEFAULT_TIMECODE_SCALE;
  let ticks: number | undefined;
  let at = 0;
  while (at < info.length) {
    const h = headerIn(info, at);
    if (!h || h.size === undefined || h.dataStart + h.size > info.length) return undefined;
    const data = info.subarray(h.dataStart, h.dataStart + h.size);
    if (h.id === TIMECODE_SCALE) scale = uint(data) ?? 0;
    if (h.id === DURATION) ticks = float(data);
    at = h.dataStart + h.size;
  }
  if (ticks === undefined || !(scale > 0)) return undefined;
  return (ticks * scale) / 1e9;
}

async function elementAt(w: ByteWindow, offset: number): Promise<ElementHeader> {
  // an id is at most 4 bytes and a size at most 8; near the end of the file fewer are there
  const bytes = await w.bytes(offset, Math.min(12, w.size - offset));
  const h = headerIn(bytes, 0);
  if (!h) throw new ProbeGiveUp('not an EBML element');
  return { ...h, dataStart: offset + h.dataStart };
}

/** The element header at `at` in `b`, or undefined when the bytes are no EBML header. */
function headerIn(b: Uint8Array, at: number): ElementHeader | undefined {
  const idLen = vintLength(b[at]);
  if (idLen === undefined || idLen > 4 || at + idLen > b.length) return undefined;
  let id = 0;
  for (let i = 0; i < idLen; i++) id = id * 256 + b[at + i]!;
  const sizeAt = at + idLen;
  const sizeLen = vintLength(b[sizeAt]);
  if (sizeLen === undefined || sizeAt + sizeLen > b.length) return undefined;
  let size = b[sizeAt]! & (0xff >> sizeLen);
  let allOnes = size === 0xff >> sizeLen;
  for (let i = 1; i < sizeLen; i++) {
    const byte = b[sizeAt + i]!;
    size = size * 256 + byte;
    allOnes &&= byte === 0xff;
  }
  if (!Number.isSafeInteger(size)) return undefined;
  return { id, dataStart: sizeAt + sizeLen, size: allOnes ? undefined : size };
}

/** The length of a variable-size integer from its first byte (the position of its first 1 bit). */
function vintLength(first: number | undefined): number | undefined {
  if (first === undefined || first === 0) return undefined;
  return Math.clz32(first) - 23;
}

function uint(data: Uint8Array): number | undefined {
  if (data.length === 0 || data.length > 7) return undefined;
  let n = 0;
  for (const byte of data) n = n * 256 + byte;
  return n;
}

function float(data: Uint8Array): number | undefined {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (data.length === 4) return view.getFloat32(0);
  if (data.length === 8) return view.getFloat64(0);
  return undefined;
}
