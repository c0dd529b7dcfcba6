import { createHash } from 'node:crypto';
import { PACKET_TYPES, PAR2_HEADER_BYTES, PAR2_MAGIC } from './packets.js';

/**
 * Where the recovery slices of a .par2 volume lie, found the way par2cmdline scans a damaged file (docs/par2.md,
 * "Recovery slices in damaged volumes"): packet headers are walked by their lengths; bytes that cannot be read (the
 * articles that hold them are missing) are skipped, and the walk resyncs on the next packet magic; every recovery
 * packet's MD5 is checked before its slice is counted. A packet a hole or a bad MD5 touches is lost, never used.
 * Bytes are read by range, so a repair still reads each slice's data in strips during the solve.
 */
export interface RecoverySliceLocation {
  exponent: number;
  /** Offset in the volume of the slice's first data byte (after the 64-byte header and the 4-byte exponent). */
  dataOffset: number;
}

/** What a scan of one volume found. */
export interface RecoveryScan {
  /** Recovery slices of the set whose packets were read whole and passed their MD5, one per exponent. */
  slices: RecoverySliceLocation[];
  /**
   * Recovery packets lost: those whose header was read but whose bytes were unreadable or failed their MD5, plus
   * the packets the unreadable bytes outside them could have held (their length divided by a packet's, rounded up).
   */
  lost: number;
  /** Bytes that could not be read (their articles are missing on every provider). */
  unreadableBytes: number;
  /** Packets skipped as not to be trusted (bad length, wrong size, failed MD5), the first few with why. */
  skipped: string[];
}

/**
 * Reads `length` bytes of the volume at `offset` (fewer only at its end); null when they cannot be read because an
 * article that holds them is missing (evidence). An outage must throw instead: it is not evidence of anything.
 */
export type VolumeRangeReader = (offset: number, length: number) => Promise<Uint8Array | null>;

export interface ScanOptions {
  /**
   * The readable piece (one article's bytes) holding `offset`: an unreadable read marks that piece and the scan goes
   * on after it, so one missing article costs one failed read. Without it the volume is cut in `SCAN_CHUNK` pieces.
   */
  pieceOf?: (offset: number) => { start: number; end: number };
}

/** Bytes read at a time while resyncing and while checking a packet's MD5. */
export const SCAN_CHUNK = 256 * 1024;
const MAX_SKIPPED = 8;
const MAGIC_TAIL = PAR2_MAGIC.length - 1;

/**
 * Scans a volume of `size` bytes for the recovery slices of set `setId` (hex) with `sliceSize`-byte slices. Never
 * throws for the volume's contents (hostile or damaged bytes are skipped and named in `skipped`); a read that throws
 * (an outage) propagates. Bounded: every step moves forward by at least one byte, every read by at least one.
 */
export async function scanRecoverySlices(
  read: VolumeRangeReader,
  size: number,
  setId: string,
  sliceSize: number,
  options: ScanOptions = {},
): Promise<RecoveryScan> {
  const scan = new VolumeScan(read, size, options.pieceOf);
  const packetBytes = PAR2_HEADER_BYTES + 4 + sliceSize;
  const found = new Map<number, number>();
  let lostPackets = 0;
  const lostRanges: { start: number; end: number }[] = []; // packets counted as lost because a hole cut them
  for (let offset = await scan.nextMagic(0); offset < size;) {
    const head = await scan.read(offset, Math.min(PAR2_HEADER_BYTES + 4, size - offset));
    const packet = head ? judgeHeader(head, offset, size, setId, packetBytes) : 'unreadable header';
    if (typeof packet === 'string') {
      if (head) scan.skip(packet);
      offset = await scan.nextMagic(offset + 1);
      continue;
    }
    if (packet.kind === 'foreign') {
      offset = packet.end; // another set's packet: not ours to check, nothing of it is used
      continue;
    }
    const md5 = await scan.md5Of(offset + 32, packet.end);
    if (md5 && md5.equals(head!.subarray(16, 32))) {
      if (packet.kind === 'recovery' && !found.has(packet.exponent))
        found.set(packet.exponent, offset + PAR2_HEADER_BYTES + 4);
      offset = packet.end;
    } else if (!md5) {
      if (packet.kind === 'recovery') lostPackets++;
      lostRanges.push({ start: offset, end: packet.end });
      offset = packet.end; // its header was read whole: the next packet starts after it
    } else {
      scan.skip(`${packet.kind} packet at ${offset}: its MD5 does not match its bytes`);
      if (packet.kind === 'recovery') lostPackets++;
      offset = await scan.nextMagic(offset + 1);
    }
  }
  // unreadable bytes outside the packets already counted could each have held a packet
  const unaccounted = scan.unreadableOutside(lostRanges);
  return {
    slices: [...found].map(([exponent, dataOffset]) => ({ exponent, dataOffset })),
    lost: lostPackets + Math.ceil(unaccounted / packetBytes),
    unreadableBytes: scan.unreadable,
    skipped: scan.skipped,
  };
}

/** The recovery slices of a volume (`scanRecoverySlices` without the counts). */
export async function locateRecoverySlices(
  read: VolumeRangeReader,
  size: number,
  setId: string,
  sliceSize: number,
  options: ScanOptions = {},
): Promise<RecoverySliceLocation[]> {
  return (await scanRecoverySlices(read, size, setId, sliceSize, options)).slices;
}

type HeaderVerdict =
  | { kind: 'foreign'; end: number }
  | { kind: 'packet'; end: number }
  | { kind: 'recovery'; exponent: number; end: number }
  | string;

/** What a header read at `offset` is: a packet to skip by its length, a recovery packet of ours, or why neither. */
function judgeHeader(
  head: Uint8Array,
  offset: number,
  size: number,
  setId: string,
  packetBytes: number,
): HeaderVerdict {
  const buf = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (buf.length < PAR2_HEADER_BYTES || !buf.subarray(0, 8).equals(PAR2_MAGIC))
    return `no PAR2 packet header at ${offset}`;
  const length = buf.readBigUInt64LE(8);
  if (length < BigInt(PAR2_HEADER_BYTES) || length % 4n !== 0n || length > BigInt(size - offset))
    return `packet at ${offset} claims ${length} bytes, past the volume's ${size}`;
  const end = offset + Number(length);
  if (buf.toString('hex', 32, 48) !== setId) return { kind: 'foreign', end };
  if (!buf.subarray(48, 64).equals(PACKET_TYPES.recoverySlice)) return { kind: 'packet', end };
  if (Number(length) !== packetBytes || buf.length < PAR2_HEADER_BYTES + 4)
    return `recovery packet at ${offset} of ${length} bytes in a set of ${packetBytes - PAR2_HEADER_BYTES - 4}-byte slices`;
  return { kind: 'recovery', exponent: buf.readUInt32LE(PAR2_HEADER_BYTES), end };
}

/** Range reads over one volume that remember which bytes were unreadable, each counted once. */
class VolumeScan {
  unreadable = 0;
  readonly skipped: string[] = [];
  private readonly holes: { start: number; end: number }[] = [];

  constructor(
    private readonly reader: VolumeRangeReader,
    private readonly size: number,
    private readonly pieceOf?: (offset: number) => { start: number; end: number },
  ) {}

  /** Unreadable bytes that lie outside every range of `ranges` (disjoint ranges). */
  unreadableOutside(ranges: readonly { start: number; end: number }[]): number {
    let bytes = this.unreadable;
    for (const h of this.holes)
      for (const r of ranges) bytes -= Math.max(0, Math.min(h.end, r.end) - Math.max(h.start, r.start));
    return bytes;
  }

  skip(reason: string): void {
    if (this.skipped.length < MAX_SKIPPED) this.skipped.push(reason);
  }

  /**
   * Bytes [offset, offset + length), or null when unreadable. On failure each piece of the range is tried alone, so
   * exactly the unreadable pieces are marked (a header read across an article boundary does not blame both).
   */
  async read(offset: number, length: number): Promise<Uint8Array | null> {
    if (this.inHole(offset)) return null;
    const bytes = await this.reader(offset, length);
    if (bytes) return bytes;
    const end = Math.min(this.size, offset + Math.max(1, length));
    const marked = this.holes.length;
    for (let at = offset; at < end;) {
      const piece = this.piece(at);
      if (!this.inHole(at) && !(await this.reader(at, Math.min(end, piece.end) - at))) this.markHole(piece);
      at = piece.end;
    }
    // unreadable as a whole though each piece read alone: the first piece is taken as the hole, so the scan moves on
    if (this.holes.length === marked) this.markHole(this.piece(offset));
    return null;
  }

  /** The MD5 of bytes [start, end) read in chunks, or null at the first unreadable byte. */
  async md5Of(start: number, end: number): Promise<Buffer | null> {
    const hash = createHash('md5');
    for (let at = start; at < end;) {
      const bytes = await this.readWithin(at, Math.min(end, at + SCAN_CHUNK));
      if (!bytes || bytes.byteLength === 0) return null;
      hash.update(bytes);
      at += bytes.byteLength;
    }
    return hash.digest();
  }

  /** The first offset at or after `from` where the packet magic starts, reading past unreadable pieces; else size. */
  async nextMagic(from: number): Promise<number> {
    let carry: Buffer = Buffer.alloc(0);
    for (let at = from; at < this.size;) {
      const to = Math.min(this.size, at + SCAN_CHUNK);
      const bytes = await this.readWithin(at, to);
      if (!bytes) {
        carry = Buffer.alloc(0);
        at = this.holeEnd(at);
        continue;
      }
      const window = carry.length
        ? Buffer.concat([carry, bytes])
        : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const hit = window.indexOf(PAR2_MAGIC);
      if (hit !== -1) return at - carry.length + hit;
      carry = Buffer.from(window.subarray(Math.max(0, window.length - MAGIC_TAIL)));
      at += bytes.byteLength;
      if (bytes.byteLength === 0) break;
    }
    return this.size;
  }

  /** Bytes [at, to) cut at the end of the piece holding `at`, so one missing article never hides its neighbours. */
  private readWithin(at: number, to: number): Promise<Uint8Array | null> {
    return this.read(at, Math.min(to, this.piece(at).end) - at);
  }

  /** The piece holding `offset`, at least one byte, inside the volume. */
  private piece(offset: number): { start: number; end: number } {
    const given = this.pieceOf?.(offset);
    if (given && given.start <= offset && given.end > offset)
      return { start: given.start, end: Math.min(this.size, given.end) };
    const start = Math.floor(offset / SCAN_CHUNK) * SCAN_CHUNK;
    return { start, end: Math.min(this.size, start + SCAN_CHUNK) };
  }

  private inHole(offset: number): boolean {
    return this.holes.some((h) => offset >= h.start && offset < h.end);
  }

  private holeEnd(offset: number): number {
    return this.holes.find((h) => offset >= h.start && offset < h.end)?.end ?? offset + 1;
  }

  private markHole(piece: { start: number; end: number }): void {
    if (this.inHole(piece.start)) return;
    this.holes.push(piece);
    this.unreadable += piece.end - piece.start;
  }
}
