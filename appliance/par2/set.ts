import { Par2Error } from './errors.js';
import { PACKET_TYPES, scanPackets, typeName, type RawPacket } from './packets.js';

/**
 * A recovery set assembled from the packets of one or more .par2 files (docs/par2.md, "Limits"). The limits are
 * far above any release and low enough that a hostile set cannot make Spool plan terabytes of work.
 */
/** Slices of the whole recovery set; par2cmdline itself refuses more than 32768. */
export const MAX_PAR2_SLICES = 32_768;
/** Sum of the lengths of the files of the recovery set. */
export const MAX_PAR2_SET_BYTES = 16 * 2 ** 40;
/** One slice; par2cmdline picks a few MiB for the largest releases. */
export const MAX_PAR2_SLICE_SIZE = 256 * 2 ** 20;
/** Files of the recovery set and of the non-recovery set together. */
export const MAX_PAR2_FILES = 100_000;

export interface Par2File {
  /** Hex of the 16-byte file id. */
  fileId: string;
  md5: Buffer;
  md5First16k: Buffer;
  length: number;
  name: string;
  /** Slices of this file: ceil(length / sliceSize). */
  sliceCount: number;
  /** Global index of the file's first input slice in the recovery set. */
  firstSlice: number;
}

export interface SliceChecksum {
  md5: Buffer;
  crc32: number;
}

export interface Par2Set {
  setId: string;
  sliceSize: number;
  /** The files whose slices the recovery data covers, in the main packet's order (the order of the slices). */
  files: Par2File[];
  /** File ids of the non-recovery set (described, not protected). */
  nonRecoveryFileIds: string[];
  /** Checksums of every input slice, by global index. */
  checksums: SliceChecksum[];
  /** Recovery slice data by exponent (views of the input bytes). */
  recovery: Map<number, Buffer>;
  creator: string | null;
  damagedPackets: number;
}

/** Reads and cross-checks the packets of `volumes` (the index and the recovery .par2 files of one set). */
export function readPar2Set(volumes: readonly Uint8Array[]): Par2Set {
  const packets: RawPacket[] = [];
  let damagedPackets = 0;
  for (const volume of volumes) {
    const scan = scanPackets(volume);
    packets.push(...scan.packets);
    damagedPackets += scan.damagedPackets;
  }
  const main = packets.find((p) => p.type.equals(PACKET_TYPES.main));
  if (!main) throw new Par2Error('malformed', 'no intact main packet: the recovery set cannot be known');
  const setId = main.setId.toString('hex');
  for (const p of packets)
    if (!p.setId.equals(main.setId))
      throw new Par2Error(
        'mismatch',
        `packet ${typeName(p.type)} belongs to set ${p.setId.toString('hex')}, not ${setId}`,
      );
  const { sliceSize, recoveryIds, nonRecoveryIds } = readMain(main.body);
  const descriptions = new Map<string, Omit<Par2File, 'sliceCount' | 'firstSlice'>>();
  const checksums = new Map<string, SliceChecksum[]>();
  const recovery = new Map<number, Buffer>();
  let creator: string | null = null;
  for (const p of packets) {
    if (p.type.equals(PACKET_TYPES.fileDesc)) {
      const d = readFileDesc(p.body);
      descriptions.set(d.fileId, d);
    } else if (p.type.equals(PACKET_TYPES.sliceChecksums)) {
      const [fileId, list] = readSliceChecksums(p.body);
      checksums.set(fileId, list);
    } else if (p.type.equals(PACKET_TYPES.recoverySlice)) {
      if (p.body.length !== 4 + sliceSize)
        throw new Par2Error(
          'mismatch',
          `recovery slice of ${p.body.length - 4} bytes in a set of ${sliceSize}-byte slices`,
        );
      recovery.set(p.body.readUInt32LE(0), p.body.subarray(4));
    } else if (p.type.equals(PACKET_TYPES.creator)) creator = p.body.toString('latin1').replace(/\0+$/, '');
  }
  const files: Par2File[] = [];
  const allChecksums: SliceChecksum[] = [];
  let totalBytes = 0;
  for (const fileId of recoveryIds) {
    const d = descriptions.get(fileId);
    if (!d) throw new Par2Error('malformed', `no intact description of file ${fileId} of the recovery set`);
    totalBytes += d.length;
    if (totalBytes > MAX_PAR2_SET_BYTES)
      throw new Par2Error('limit', `the recovery set claims more than ${MAX_PAR2_SET_BYTES} bytes of files`);
    const sliceCount = Math.ceil(d.length / sliceSize);
    if (allChecksums.length + sliceCount > MAX_PAR2_SLICES)
      throw new Par2Error('limit', `the recovery set claims more than ${MAX_PAR2_SLICES} slices`);
    const list = checksums.get(fileId);
    if (!list) throw new Par2Error('malformed', `no intact slice checksums of file ${d.name || fileId}`);
    if (list.length !== sliceCount)
      throw new Par2Error('mismatch', `${d.name || fileId}: ${list.length} slice checksums for ${sliceCount} slices`);
    files.push({ ...d, sliceCount, firstSlice: allChecksums.length });
    allChecksums.push(...list);
  }
  const nonRecoveryFileIds = nonRecoveryIds;
  return { setId, sliceSize, files, nonRecoveryFileIds, checksums: allChecksums, recovery, creator, damagedPackets };
}

function readMain(body: Buffer): { sliceSize: number; recoveryIds: string[]; nonRecoveryIds: string[] } {
  if (body.length < 12 || (body.length - 12) % 16 !== 0)
    throw new Par2Error('malformed', `main packet body of ${body.length} bytes is not 12 + 16 per file id`);
  const size = body.readBigUInt64LE(0);
  if (size === 0n || size % 4n !== 0n || size > BigInt(MAX_PAR2_SLICE_SIZE))
    throw new Par2Error(
      size > BigInt(MAX_PAR2_SLICE_SIZE) ? 'limit' : 'malformed',
      `slice size ${size} is not a positive multiple of 4 up to ${MAX_PAR2_SLICE_SIZE}`,
    );
  const count = body.readUInt32LE(8);
  const ids = (body.length - 12) / 16;
  if (ids > MAX_PAR2_FILES) throw new Par2Error('limit', `the main packet lists ${ids} files, over ${MAX_PAR2_FILES}`);
  if (count > ids)
    throw new Par2Error('malformed', `the main packet claims ${count} recovery files but lists ${ids} file ids`);
  const id = (i: number) => body.toString('hex', 12 + i * 16, 28 + i * 16);
  const all = Array.from({ length: ids }, (_, i) => id(i));
  return { sliceSize: Number(size), recoveryIds: all.slice(0, count), nonRecoveryIds: all.slice(count) };
}

function readFileDesc(body: Buffer): Omit<Par2File, 'sliceCount' | 'firstSlice'> {
  if (body.length < 56) throw new Par2Error('malformed', `file description body of ${body.length} bytes, under 56`);
  const length = body.readBigUInt64LE(48);
  if (length > BigInt(MAX_PAR2_SET_BYTES))
    throw new Par2Error('limit', `a file description claims ${length} bytes, over ${MAX_PAR2_SET_BYTES}`);
  return {
    fileId: body.toString('hex', 0, 16),
    md5: body.subarray(16, 32),
    md5First16k: body.subarray(32, 48),
    length: Number(length),
    name: body.subarray(56).toString('utf8').replace(/\0+$/, ''),
  };
}

function readSliceChecksums(body: Buffer): [string, SliceChecksum[]] {
  if (body.length < 16 || (body.length - 16) % 20 !== 0)
    throw new Par2Error('malformed', `slice checksum body of ${body.length} bytes is not 16 + 20 per slice`);
  const count = (body.length - 16) / 20;
  if (count > MAX_PAR2_SLICES) throw new Par2Error('limit', `${count} slice checksums, over ${MAX_PAR2_SLICES}`);
  const list: SliceChecksum[] = [];
  for (let i = 0, at = 16; i < count; i++, at += 20)
    list.push({ md5: body.subarray(at, at + 16), crc32: body.readUInt32LE(at + 16) });
  return [body.toString('hex', 0, 16), list];
}
