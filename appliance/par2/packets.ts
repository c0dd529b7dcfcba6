import { createHash } from 'node:crypto';
import { Par2Error } from './errors.js';

/**
 * The packet layer of PAR 2.0 (docs/par2.md, "Packets"): every packet is a 64-byte header, `"PAR2\0PKT"`,
 * u64 length of the whole packet (a multiple of 4, at least 64), the MD5 of bytes 32..end, the 16-byte
 * recovery set id and the 16-byte type; then the body. All integers are little-endian.
 */
export const PAR2_MAGIC = Buffer.from('PAR2\0PKT', 'latin1');
export const PAR2_HEADER_BYTES = 64;

export const PACKET_TYPES = {
  main: Buffer.from('PAR 2.0\0Main\0\0\0\0', 'latin1'),
  fileDesc: Buffer.from('PAR 2.0\0FileDesc', 'latin1'),
  sliceChecksums: Buffer.from('PAR 2.0\0IFSC\0\0\0\0', 'latin1'),
  recoverySlice: Buffer.from('PAR 2.0\0RecvSlic', 'latin1'),
  creator: Buffer.from('PAR 2.0\0Creator\0', 'latin1'),
  unicodeName: Buffer.from('PAR 2.0\0UniFileN', 'latin1'),
} as const;

export interface RawPacket {
  /** Where the packet starts in the scanned bytes. */
  offset: number;
  setId: Buffer;
  type: Buffer;
  /** The bytes after the header (a view of the input, not a copy). */
  body: Buffer;
}

export interface ScanOptions {
  /**
   * Lenient (reading names from whatever arrived): a damaged header or a truncated tail skips to the next magic.
   * Strict (the default, for repair): such bytes throw a `malformed` Par2Error.
   */
  lenient?: boolean;
  /** Packets to keep, by type and whole length; others are skipped without hashing. Default: all. */
  want?: (type: Buffer, length: number) => boolean;
}

export interface ScanResult {
  packets: RawPacket[];
  /** Packets dropped because their MD5 did not match their bytes. */
  damagedPackets: number;
  /** Lenient only: headers skipped as unreadable (bad magic, length, a truncated tail). */
  unreadableHeaders: number;
  /** Why, for the first few of them. */
  reasons: string[];
}

const MAX_REASONS = 8;

/** Splits `data` into verified packets. Every step moves forward by at least 8 bytes, so the loop is bounded. */
export function scanPackets(data: Uint8Array, options: ScanOptions = {}): ScanResult {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const result: ScanResult = { packets: [], damagedPackets: 0, unreadableHeaders: 0, reasons: [] };
  const note = (reason: string) => {
    if (result.reasons.length < MAX_REASONS) result.reasons.push(reason);
  };
  let offset = options.lenient ? buf.indexOf(PAR2_MAGIC) : 0;
  while (offset !== -1 && offset < buf.length) {
    const fault = headerFault(buf, offset);
    if (fault) {
      if (!options.lenient) throw new Par2Error('malformed', fault);
      result.unreadableHeaders++;
      note(fault);
      offset = buf.indexOf(PAR2_MAGIC, offset + 8); // resynchronise on the next magic
      continue;
    }
    const length = Number(buf.readBigUInt64LE(offset + 8));
    const end = offset + length;
    const type = buf.subarray(offset + 48, offset + 64);
    if (!options.want || options.want(type, length)) {
      const md5 = createHash('md5')
        .update(buf.subarray(offset + 32, end))
        .digest();
      if (md5.equals(buf.subarray(offset + 16, offset + 32))) {
        const setId = buf.subarray(offset + 32, offset + 48);
        result.packets.push({ offset, setId, type, body: buf.subarray(offset + PAR2_HEADER_BYTES, end) });
      } else {
        result.damagedPackets++;
        note(`packet ${typeName(type)} at byte ${offset}: its MD5 does not match its bytes`);
      }
    }
    offset = options.lenient ? buf.indexOf(PAR2_MAGIC, end) : end;
  }
  return result;
}

/** What is wrong with the header at `offset`, or null when it describes a whole packet inside `buf`. */
function headerFault(buf: Buffer, offset: number): string | null {
  const at = `at byte ${offset}`;
  if (offset + PAR2_HEADER_BYTES > buf.length)
    return `truncated packet ${at}: ${buf.length - offset} bytes left, a header is ${PAR2_HEADER_BYTES}`;
  if (!buf.subarray(offset, offset + 8).equals(PAR2_MAGIC)) return `no PAR2 packet magic ${at}`;
  const length = buf.readBigUInt64LE(offset + 8);
  if (length < BigInt(PAR2_HEADER_BYTES))
    return `packet ${at} claims ${length} bytes, shorter than its ${PAR2_HEADER_BYTES}-byte header`;
  if (length % 4n !== 0n) return `packet ${at} claims ${length} bytes, not a multiple of 4`;
  if (length > BigInt(buf.length - offset))
    return `packet ${at} claims ${length} bytes, past the end of the data (${buf.length - offset} left)`;
  return null;
}

/** The readable part of a type ("FileDesc", "RecvSlic"), for messages. */
export function typeName(type: Buffer): string {
  return (
    type
      .subarray(8)
      .toString('latin1')
      .replace(/\0+$/, '')
      .replace(/[^\x20-\x7e]/g, '?') || '(unnamed)'
  );
}
