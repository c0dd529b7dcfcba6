import { Par2Error } from './errors.js';
import { PACKET_TYPES, PAR2_HEADER_BYTES, PAR2_MAGIC } from './packets.js';

/**
 * Where the recovery slices of a .par2 volume lie, found by reading packet headers only (docs/par2.md, "Streaming
 * repair"), so a repair can read each slice's bytes in strips instead of holding whole volumes. The packets' MD5s
 * are not checked here (that would read every byte); a damaged recovery slice shows as a rebuilt slice failing its
 * MD5 and CRC32 at the end of the solve.
 */
export interface RecoverySliceLocation {
  exponent: number;
  /** Offset in the volume of the slice's first data byte (after the 64-byte header and the 4-byte exponent). */
  dataOffset: number;
}

/** Reads `length` bytes of the volume at `offset` (fewer only at its end); null when they cannot be read. */
export type VolumeRangeReader = (offset: number, length: number) => Promise<Uint8Array | null>;

/**
 * Walks the packet headers of a volume of `size` bytes and lists its recovery slices of set `setId` (hex) and
 * `sliceSize`. A header that is not a PAR2 header, a length that runs past the end, a packet of another set or a
 * recovery packet of the wrong size throws a Par2Error; an unreadable range throws 'unrepairable' (not evidence of
 * damage, the caller may retry).
 */
export async function locateRecoverySlices(
  read: VolumeRangeReader,
  size: number,
  setId: string,
  sliceSize: number,
): Promise<RecoverySliceLocation[]> {
  const found: RecoverySliceLocation[] = [];
  const headerWithExponent = PAR2_HEADER_BYTES + 4;
  // every step moves forward by a packet length of at least 64 bytes, so the loop is bounded by size / 64
  for (let offset = 0; offset < size;) {
    const head = await read(offset, Math.min(headerWithExponent, size - offset));
    if (!head) throw new Par2Error('unrepairable', `cannot read the packet header at ${offset} of the volume`);
    const buf = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
    if (buf.length < PAR2_HEADER_BYTES || !buf.subarray(0, 8).equals(PAR2_MAGIC))
      throw new Par2Error('malformed', `no PAR2 packet header at ${offset} of the volume`);
    const length = buf.readBigUInt64LE(8);
    if (length < BigInt(PAR2_HEADER_BYTES) || length % 4n !== 0n || length > BigInt(size - offset))
      throw new Par2Error('malformed', `packet at ${offset} claims ${length} bytes, past the volume's ${size}`);
    const packetSet = buf.toString('hex', 32, 48);
    if (packetSet !== setId)
      throw new Par2Error('mismatch', `packet at ${offset} belongs to set ${packetSet}, not ${setId}`);
    if (buf.subarray(48, 64).equals(PACKET_TYPES.recoverySlice)) {
      if (length !== BigInt(headerWithExponent + sliceSize) || buf.length < headerWithExponent)
        throw new Par2Error(
          'mismatch',
          `recovery packet at ${offset} of ${length} bytes in a set of ${sliceSize}-byte slices`,
        );
      found.push({ exponent: buf.readUInt32LE(PAR2_HEADER_BYTES), dataOffset: offset + headerWithExponent });
    }
    offset += Number(length);
  }
  return found;
}
