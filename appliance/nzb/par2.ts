import { createHash } from 'node:crypto';
import { PACKET_TYPES, PAR2_HEADER_BYTES, scanPackets } from '../par2/packets.js';

/**
 * Reads PAR2 packets (the published PAR 2.0 format): every packet starts with a 64-byte header
 * `"PAR2\0PKT"`, u64 length (whole packet), MD5 of bytes 32..end, recovery-set id, 16-byte type; then the body.
 * Only the small packets that name files are read; recovery slices are skipped without hashing.
 */
export interface Par2FileDescription {
  /** Hex of the 16-byte file id. */
  fileId: string;
  /** Hex MD5 of the whole file. */
  md5: string;
  /** Hex MD5 of the first 16 KiB (or of the whole file when it is shorter). */
  md5First16k: string;
  length: number;
  name: string;
}

export interface Par2Index {
  /** From the main packet; 0 when none was read. */
  sliceSize: number;
  /** File ids (hex) of the recovery set, in the main packet's order. */
  recoveryFileIds: string[];
  files: Par2FileDescription[];
  /** Packets dropped because their MD5 did not match (damaged or truncated data). */
  damagedPackets: number;
}

const TYPE_MAIN = PACKET_TYPES.main;
const TYPE_FILE_DESC = PACKET_TYPES.fileDesc;
const TYPE_UNICODE_NAME = PACKET_TYPES.unicodeName;
/** No description packet is anywhere near this; a bigger claimed length on one is damage, not data. */
const MAX_NAMING_PACKET = 64 * 1024;

/** Parses what it can from `data` (a whole .par2 file or its first bytes); never throws on bad bytes. */
export function parsePar2(data: Uint8Array): Par2Index {
  const index: Par2Index = { sliceSize: 0, recoveryFileIds: [], files: [], damagedPackets: 0 };
  const byId = new Map<string, Par2FileDescription>();
  const unicodeNames = new Map<string, string>();
  const naming = (type: Buffer) =>
    type.equals(TYPE_MAIN) || type.equals(TYPE_FILE_DESC) || type.equals(TYPE_UNICODE_NAME);
  // the one PAR2 packet reader (appliance/par2/packets.ts), lenient: a damaged header or tail resynchronises
  const scan = scanPackets(data, { lenient: true, want: naming });
  index.damagedPackets = scan.damagedPackets;
  for (const { type, body } of scan.packets) {
    if (body.length + PAR2_HEADER_BYTES > MAX_NAMING_PACKET) {
      index.damagedPackets++;
      continue;
    }
    if (type.equals(TYPE_MAIN)) readMain(body, index);
    else if (type.equals(TYPE_FILE_DESC)) readFileDescription(body, byId);
    else if (body.length >= 16) unicodeNames.set(hex(body, 0, 16), trimNul(body.subarray(16).toString('utf16le')));
  }
  for (const [id, name] of unicodeNames) {
    const desc = byId.get(id);
    if (desc && name !== '') desc.name = name; // the Unicode packet is the authority when both exist
  }
  index.files = [...byId.values()];
  return index;
}

function readMain(body: Buffer, index: Par2Index): void {
  if (body.length < 12) return;
  index.sliceSize = Number(body.readBigUInt64LE(0));
  const count = body.readUInt32LE(8);
  index.recoveryFileIds = [];
  for (let i = 0; i < count && 12 + (i + 1) * 16 <= body.length; i++)
    index.recoveryFileIds.push(hex(body, 12 + i * 16, 16));
}

function readFileDescription(body: Buffer, byId: Map<string, Par2FileDescription>): void {
  if (body.length < 56) return;
  const fileId = hex(body, 0, 16);
  byId.set(fileId, {
    fileId,
    md5: hex(body, 16, 16),
    md5First16k: hex(body, 32, 16),
    length: Number(body.readBigUInt64LE(48)),
    name: trimNul(body.subarray(56).toString('utf8')),
  });
}

const hex = (buf: Buffer, at: number, len: number) => buf.toString('hex', at, at + len);
const trimNul = (text: string) => text.replace(/\0+$/, '');

export const FIRST_16K = 16 * 1024;

/** MD5 (hex) of the first 16 KiB of a file's decoded bytes, as PAR2 records it. */
export function md5First16k(decodedHead: Uint8Array): string {
  return createHash('md5').update(decodedHead.subarray(0, FIRST_16K)).digest('hex');
}

/**
 * The PAR2 description of the file whose decoded head is `head`. Several descriptions may share a 16 KiB hash
 * (files that start alike); then `size` (the yEnc total) must pick exactly one, else there is no answer.
 */
export function matchPar2Description(
  files: readonly Par2FileDescription[],
  head: Uint8Array,
  size?: number,
): Par2FileDescription | null {
  const hash = md5First16k(head);
  let matches = files.filter((f) => f.md5First16k === hash);
  if (matches.length > 1 && size !== undefined) matches = matches.filter((f) => f.length === size);
  if (matches.length !== 1) return null;
  const match = matches[0]!;
  // a head shorter than 16 KiB is the whole file; its length must then agree too
  if (head.length < FIRST_16K && match.length !== head.length) return null;
  // the yEnc total is exact, so a description of another length is a different file that starts the same way
  if (size !== undefined && match.length !== size) return null;
  return match;
}
