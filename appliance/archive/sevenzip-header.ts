import { Cursor, MAX_SIZE } from './bytes.js';
import { invalid } from './archive.types.js';

/**
 * The 7z header's structures (7-Zip's 7zFormat.txt): property ids, NUMBERs (first byte's leading ones count the
 * extra bytes), pack info, folders (coder chains), substreams and file properties. Pure: a Buffer in, data out.
 */
export const enum Id {
  End = 0x00,
  Header = 0x01,
  ArchiveProperties = 0x02,
  AdditionalStreamsInfo = 0x03,
  MainStreamsInfo = 0x04,
  FilesInfo = 0x05,
  PackInfo = 0x06,
  UnpackInfo = 0x07,
  SubStreamsInfo = 0x08,
  Size = 0x09,
  Crc = 0x0a,
  Folder = 0x0b,
  CodersUnpackSize = 0x0c,
  NumUnpackStream = 0x0d,
  EmptyStream = 0x0e,
  EmptyFile = 0x0f,
  Name = 0x11,
  EncodedHeader = 0x17,
  Dummy = 0x19,
}

/** Counts a hostile header could inflate; a release has a few hundred files at most. */
const MAX_COUNT = 1_000_000;

export interface Coder {
  id: string; // hex
  properties: Buffer;
  inStreams: number;
  outStreams: number;
}

export interface Folder {
  coders: Coder[];
  unpackSizes: number[];
  /** Packed streams of this folder, as indexes into the pack streams. */
  packedStreams: number;
  /** CRC32 of the folder's unpacked output, when the header gives it. */
  crc?: number;
}

export interface StreamsInfo {
  packPos: number;
  packSizes: number[];
  folders: Folder[];
  /** Per folder: its files' stream sizes in order, and their CRCs where the header gives them. */
  substreams: { sizes: number[]; crcs?: (number | undefined)[] }[];
}

export interface FileRecord {
  name: string;
  hasStream: boolean;
  directory: boolean;
}

export class HeaderCursor extends Cursor {
  /** 7z NUMBER: up to 9 bytes, the first byte's leading ones say how many follow. */
  number(): number {
    const first = this.u8();
    let mask = 0x80;
    let value = 0;
    for (let i = 0; i < 8; i++) {
      if ((first & mask) === 0) {
        value += (first & (mask - 1)) * 2 ** (8 * i);
        return check(value);
      }
      value += this.u8() * 2 ** (8 * i);
      mask >>>= 1;
    }
    return check(value);
  }
  count(): number {
    const n = this.number();
    if (n > MAX_COUNT) throw invalid(`the 7z header declares ${n} items`);
    return n;
  }
  bits(n: number): boolean[] {
    const out: boolean[] = [];
    let byte = 0;
    for (let i = 0; i < n; i++) {
      if (i % 8 === 0) byte = this.u8();
      out.push((byte & (0x80 >>> (i % 8))) !== 0);
    }
    return out;
  }
  /** "AllAreDefined" byte, else a bit vector. */
  definedBits(n: number): boolean[] {
    return this.u8() !== 0 ? new Array<boolean>(n).fill(true) : this.bits(n);
  }
  expect(id: number, what: string): void {
    const got = this.u8();
    if (got !== id) throw invalid(`the 7z header has property ${got} where ${what} belongs`);
  }
}

function check(value: number): number {
  if (value > MAX_SIZE) throw invalid(`the 7z header has a number of about 2^${Math.round(Math.log2(value))}`);
  return value;
}

export function readStreamsInfo(c: HeaderCursor): StreamsInfo {
  const info: StreamsInfo = { packPos: 0, packSizes: [], folders: [], substreams: [] };
  for (;;) {
    const id = c.u8();
    if (id === Id.End) break;
    if (id === Id.PackInfo) readPackInfo(c, info);
    else if (id === Id.UnpackInfo) readUnpackInfo(c, info);
    else if (id === Id.SubStreamsInfo) readSubStreams(c, info);
    else throw invalid(`the 7z header has an unknown streams property ${id}`);
  }
  if (info.substreams.length === 0) info.substreams = info.folders.map((f) => ({ sizes: [finalSize(f)] }));
  return info;
}

function readPackInfo(c: HeaderCursor, info: StreamsInfo): void {
  info.packPos = c.number();
  const n = c.count();
  for (;;) {
    const id = c.u8();
    if (id === Id.End) return;
    if (id === Id.Size) for (let i = 0; i < n; i++) info.packSizes.push(c.number());
    else if (id === Id.Crc) skipDigests(c, n);
    else throw invalid(`the 7z pack info has an unknown property ${id}`);
  }
}

function readUnpackInfo(c: HeaderCursor, info: StreamsInfo): void {
  c.expect(Id.Folder, 'the folder list');
  const n = c.count();
  if (c.u8() !== 0) throw invalid('the 7z header keeps its folders elsewhere (external), which is not supported');
  for (let i = 0; i < n; i++) info.folders.push(readFolder(c));
  c.expect(Id.CodersUnpackSize, 'the unpacked sizes');
  for (const f of info.folders) {
    const outs = f.coders.reduce((s, k) => s + k.outStreams, 0);
    for (let i = 0; i < outs; i++) f.unpackSizes.push(c.number());
  }
  for (;;) {
    const id = c.u8();
    if (id === Id.End) return;
    if (id === Id.Crc) {
      const defined = c.definedBits(n);
      defined.forEach((d, i) => {
        if (d) info.folders[i]!.crc = c.u32();
      });
    } else throw invalid(`the 7z unpack info has an unknown property ${id}`);
  }
}

function readFolder(c: HeaderCursor): Folder {
  const count = c.count();
  if (count < 1 || count > 64) throw invalid(`a 7z folder has ${count} coders`);
  const coders: Coder[] = [];
  let ins = 0;
  let outs = 0;
  for (let i = 0; i < count; i++) {
    const flags = c.u8();
    if (flags & 0x80) throw invalid('a 7z coder uses alternative methods, which no 7-Zip writes');
    const id = c.bytes(flags & 0x0f).toString('hex');
    const complex = (flags & 0x10) !== 0;
    const inStreams = complex ? c.count() : 1;
    const outStreams = complex ? c.count() : 1;
    const properties = flags & 0x20 ? Buffer.from(c.bytes(c.count())) : Buffer.alloc(0);
    coders.push({ id, properties, inStreams, outStreams });
    ins += inStreams;
    outs += outStreams;
  }
  const bindPairs = outs - 1;
  for (let i = 0; i < bindPairs; i++) {
    c.number();
    c.number();
  }
  const packedStreams = ins - bindPairs;
  if (packedStreams < 1) throw invalid('a 7z folder has no packed stream');
  if (packedStreams > 1) for (let i = 0; i < packedStreams; i++) c.number();
  return { coders, unpackSizes: [], packedStreams };
}

/** The folder's final output size: 7-Zip writes the main coder's output last among unbound outputs; one coder is the common case. */
export function finalSize(f: Folder): number {
  return f.unpackSizes[0] ?? 0;
}

function readSubStreams(c: HeaderCursor, info: StreamsInfo): void {
  const counts = info.folders.map(() => 1);
  let id = c.u8();
  if (id === Id.NumUnpackStream) {
    for (let i = 0; i < counts.length; i++) counts[i] = c.count();
    id = c.u8();
  }
  const sizes = info.folders.map(() => [] as number[]);
  const hasSizes = id === Id.Size;
  info.folders.forEach((f, i) => {
    const n = counts[i]!;
    if (n === 0) return;
    let sum = 0;
    for (let k = 0; k < n - 1 && hasSizes; k++) {
      const s = c.number();
      sizes[i]!.push(s);
      sum += s;
    }
    const total = finalSize(f);
    if (sum > total) throw invalid('a 7z folder holds more file bytes than it unpacks to');
    sizes[i]!.push(total - sum);
  });
  if (hasSizes) id = c.u8();
  // a folder of one stream whose CRC is known already has it; the digests here are for every other stream
  const known = (i: number) => counts[i] === 1 && info.folders[i]!.crc !== undefined;
  const crcs = info.folders.map((f, i) => (known(i) ? [f.crc] : new Array<number | undefined>(counts[i]!)));
  while (id !== Id.End) {
    if (id === Id.Crc) {
      const unknown = info.folders.reduce((s, _, i) => s + (known(i) ? 0 : counts[i]!), 0);
      const defined = c.definedBits(unknown);
      let k = 0;
      info.folders.forEach((_, i) => {
        if (known(i)) return;
        for (let j = 0; j < counts[i]!; j++) if (defined[k++]) crcs[i]![j] = c.u32();
      });
    } else throw invalid(`the 7z substreams info has an unknown property ${id}`);
    id = c.u8();
  }
  info.substreams = sizes.map((s, i) => ({ sizes: s, crcs: crcs[i] }));
}

function skipDigests(c: HeaderCursor, n: number): void {
  const defined = c.definedBits(n);
  for (const d of defined) if (d) c.u32();
}

export function readFilesInfo(c: HeaderCursor): FileRecord[] {
  const n = c.count();
  const files: FileRecord[] = Array.from({ length: n }, () => ({ name: '', hasStream: true, directory: false }));
  let emptyStreams: boolean[] = [];
  let emptyFiles: boolean[] = [];
  for (;;) {
    const id = c.u8();
    if (id === Id.End) break;
    const size = c.number();
    const end = c.at + size;
    if (end > c.buf.length) throw invalid('a 7z file property runs past the header');
    if (id === Id.EmptyStream) emptyStreams = c.bits(n);
    else if (id === Id.EmptyFile) emptyFiles = c.bits(emptyStreams.filter(Boolean).length);
    else if (id === Id.Name) {
      if (c.u8() !== 0) throw invalid('the 7z header keeps its names elsewhere (external), which is not supported');
      const text = c.buf.toString('utf16le', c.at, end);
      const names = text.split('\u0000');
      if (names.length < n + 1) throw invalid('the 7z header has fewer names than files');
      for (let i = 0; i < n; i++) files[i]!.name = names[i]!;
    }
    c.at = end;
  }
  let e = 0;
  files.forEach((f, i) => {
    if (emptyStreams[i]) {
      f.hasStream = false;
      f.directory = !emptyFiles[e++];
    }
  });
  return files;
}
