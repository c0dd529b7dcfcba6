import { createHash } from 'node:crypto';

/**
 * Writes PAR 2.0 packets straight from the published format, for tests: a 64-byte header ("PAR2\0PKT", u64 length,
 * MD5 of everything from the recovery-set id on, recovery-set id, 16-byte type) and a body padded to 4 bytes.
 */
export interface Par2TestFile {
  name: string;
  data: Buffer;
}

const pad4 = (buf: Buffer) => Buffer.concat([buf, Buffer.alloc((4 - (buf.length % 4)) % 4)]);
const md5 = (data: Buffer) => createHash('md5').update(data).digest();

export function par2Packet(type: string, body: Buffer, setId = Buffer.alloc(16, 7)): Buffer {
  const padded = pad4(body);
  const header = Buffer.alloc(64);
  header.write('PAR2\0PKT', 0, 'latin1');
  header.writeBigUInt64LE(BigInt(64 + padded.length), 8);
  setId.copy(header, 32);
  header.write(type.padEnd(16, '\0'), 48, 'latin1');
  const hashed = Buffer.concat([header.subarray(32), padded]);
  md5(hashed).copy(header, 16);
  return Buffer.concat([header, padded]);
}

export function fileIdOf(file: Par2TestFile): Buffer {
  // the spec's file id: MD5 of (MD5 of first 16k, u64 length, name)
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(file.data.length));
  return md5(Buffer.concat([md5(file.data.subarray(0, 16384)), length, Buffer.from(file.name)]));
}

export function fileDescPacket(file: Par2TestFile): Buffer {
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(file.data.length));
  const body = Buffer.concat([
    fileIdOf(file),
    md5(file.data),
    md5(file.data.subarray(0, 16384)),
    length,
    Buffer.from(file.name),
  ]);
  return par2Packet('PAR 2.0\0FileDesc', body);
}

export function mainPacket(files: Par2TestFile[], sliceSize = 4096): Buffer {
  const head = Buffer.alloc(12);
  head.writeBigUInt64LE(BigInt(sliceSize), 0);
  head.writeUInt32LE(files.length, 8);
  return par2Packet('PAR 2.0\0Main', Buffer.concat([head, ...files.map(fileIdOf)]));
}

export function unicodeNamePacket(file: Par2TestFile, name: string): Buffer {
  return par2Packet('PAR 2.0\0UniFileN', Buffer.concat([fileIdOf(file), Buffer.from(name, 'utf16le')]));
}

/** A minimal PAR2 index file: main packet, one description per file, and a creator packet we must skip. */
export function par2Index(files: Par2TestFile[]): Buffer {
  const creator = par2Packet('PAR 2.0\0Creator', Buffer.from('spool tests'));
  return Buffer.concat([mainPacket(files), ...files.map(fileDescPacket), creator]);
}
