import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { gfExp2, gfPow, mulAdd } from '../../../appliance/par2/gf16.js';
import { inputConstantLogs } from '../../../appliance/par2/solve.js';
import { fileDescPacket, fileIdOf, par2Packet, type Par2TestFile } from '../nzb/par2-writer.js';

/**
 * Writes a whole PAR 2.0 recovery set in memory for unit tests (main, descriptions, slice checksums, recovery
 * slices, creator), following docs/par2.md. The integration tests use sets made by the real par2 tool instead.
 */
export const SET_ID = Buffer.alloc(16, 7);

const md5 = (data: Uint8Array) => createHash('md5').update(data).digest();

export function mainBody(sliceSize: number, recoveryIds: Buffer[], nonRecoveryIds: Buffer[] = []): Buffer {
  const head = Buffer.alloc(12);
  head.writeBigUInt64LE(BigInt(sliceSize), 0);
  head.writeUInt32LE(recoveryIds.length, 8);
  return Buffer.concat([head, ...recoveryIds, ...nonRecoveryIds]);
}

/** The zero-padded input slices of `files`, in order. */
export function inputSlices(files: Par2TestFile[], sliceSize: number): Buffer[] {
  const slices: Buffer[] = [];
  for (const f of files)
    for (let at = 0; at < f.data.length; at += sliceSize) {
      const s = Buffer.alloc(sliceSize);
      f.data.copy(s, 0, at, at + sliceSize);
      slices.push(s);
    }
  return slices;
}

export function checksumBody(file: Par2TestFile, sliceSize: number): Buffer {
  const parts = [fileIdOf(file)];
  for (const s of inputSlices([file], sliceSize)) {
    const crc = Buffer.alloc(4);
    crc.writeUInt32LE(crc32(s) >>> 0);
    parts.push(md5(s), crc);
  }
  return Buffer.concat(parts);
}

/** Recovery slice of exponent e: the sum of c_i^e * slice_i. */
export function recoverySlice(slices: Buffer[], exponent: number, sliceSize: number): Buffer {
  const out = Buffer.alloc(sliceSize);
  const logs = inputConstantLogs(slices.length);
  slices.forEach((s, i) => mulAdd(out, s, gfPow(gfExp2(logs[i]!), exponent)));
  return out;
}

export function recoveryPacket(exponent: number, data: Buffer): Buffer {
  const e = Buffer.alloc(4);
  e.writeUInt32LE(exponent);
  return par2Packet('PAR 2.0\0RecvSlic', Buffer.concat([e, data]), SET_ID);
}

/** An index and a volume of `recovery` slices, files in the given order. */
export function par2Set(files: Par2TestFile[], sliceSize: number, recovery: number): { index: Buffer; volume: Buffer } {
  const ids = files.map(fileIdOf);
  const slices = inputSlices(files, sliceSize);
  const index = Buffer.concat([
    par2Packet('PAR 2.0\0Main', mainBody(sliceSize, ids), SET_ID),
    ...files.map((f) => fileDescPacket(f)),
    ...files.map((f) => par2Packet('PAR 2.0\0IFSC', checksumBody(f, sliceSize), SET_ID)),
    par2Packet('PAR 2.0\0Creator', Buffer.from('Spool tests'), SET_ID),
  ]);
  const volume = Buffer.concat(
    Array.from({ length: recovery }, (_, e) => recoveryPacket(e, recoverySlice(slices, e, sliceSize))),
  );
  return { index, volume };
}
