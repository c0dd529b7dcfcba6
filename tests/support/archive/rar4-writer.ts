/**
 * A store-mode RAR 2.9/3.x ("RAR 4") writer for tests, from the RAR 3.x technical notes (nothing on Debian writes
 * RAR). Independent of appliance/archive; checked against unar/lsar in tests/integration/archive/writers.test.ts.
 * Unicode names are written in the compact LHD_UNICODE encoding with 16-bit literals only (what the notes allow).
 */
import { crc32 } from 'node:zlib';
import { rarVolumeNames, sizeOf, VolumeBuilder, type MemberInput, type WrittenVolume } from './volumes.js';

export const RAR4_SIG = Buffer.from([0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x00]);

/** HEAD_CRC | HEAD_TYPE | HEAD_FLAGS | HEAD_SIZE | rest; HEAD_CRC is the low half of CRC32 from HEAD_TYPE on. */
export function rar4Block(type: number, flags: number, rest: Buffer): Buffer {
  const b = Buffer.alloc(7 + rest.length);
  b[2] = type;
  b.writeUInt16LE(flags, 3);
  b.writeUInt16LE(b.length, 5);
  rest.copy(b, 7);
  b.writeUInt16LE(crc32(b.subarray(2)) & 0xffff, 0);
  return b;
}

export function rar4Main(first: boolean, multi: boolean, newNaming: boolean): Buffer {
  const flags = (multi ? 0x1 : 0) | (newNaming ? 0x10 : 0) | (first ? 0x100 : 0);
  return rar4Block(0x73, flags, Buffer.alloc(6));
}

export function rar4End(volumeNumber: number, more: boolean): Buffer {
  const rest = Buffer.alloc(2);
  rest.writeUInt16LE(volumeNumber);
  return rar4Block(0x7b, (more ? 0x1 : 0) | 0x8, rest);
}

/** The name field and whether it needs LHD_UNICODE: ASCII names as they are, others as '?'-name + 0 + encoding. */
export function rar4NameField(name: string): { field: Buffer; unicode: boolean } {
  if (/^[\x20-\x7e]*$/.test(name)) return { field: Buffer.from(name, 'latin1'), unicode: false };
  const units = [...name].flatMap((ch) => {
    const cp = ch.codePointAt(0)!;
    return cp > 0xffff ? [0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff)] : [cp];
  });
  const name8 = Buffer.from(units.map((u) => (u < 0x80 ? u : 0x3f)));
  const enc: number[] = [0]; // high byte (unused: every char is a 16-bit literal)
  for (let i = 0; i < units.length; i += 4) {
    const group = units.slice(i, i + 4);
    let flags = 0;
    group.forEach((_, k) => (flags |= 2 << (6 - 2 * k)));
    enc.push(flags);
    for (const u of group) enc.push(u & 0xff, u >> 8);
  }
  return { field: Buffer.concat([name8, Buffer.from([0]), Buffer.from(enc)]), unicode: true };
}

export function rar4FileHeader(o: {
  name: string;
  unpackedSize: number;
  dataSize: number;
  crc: number;
  splitBefore?: boolean;
  splitAfter?: boolean;
  method?: number;
  extraFlags?: number;
  salt?: Buffer;
}): Buffer {
  const { field, unicode } = rar4NameField(o.name);
  const large = o.unpackedSize > 0xffffffff || o.dataSize > 0xffffffff;
  const flags =
    0x8000 |
    (o.splitBefore ? 0x1 : 0) |
    (o.splitAfter ? 0x2 : 0) |
    (large ? 0x100 : 0) |
    (unicode ? 0x200 : 0) |
    (o.salt ? 0x400 : 0) |
    (o.extraFlags ?? 0);
  const fixed = Buffer.alloc(25 + (large ? 8 : 0));
  fixed.writeUInt32LE(o.dataSize % 2 ** 32, 0);
  fixed.writeUInt32LE(o.unpackedSize % 2 ** 32, 4);
  fixed[8] = 3; // Unix
  fixed.writeUInt32LE(o.crc >>> 0, 9);
  fixed.writeUInt32LE(0x5821_6000, 13); // DOS date and time: 2024-01-01 12:00
  fixed[17] = 29;
  fixed[18] = o.method ?? 0x30;
  fixed.writeUInt16LE(field.length, 19);
  fixed.writeUInt32LE(0o100644, 21);
  if (large) {
    fixed.writeUInt32LE(Math.floor(o.dataSize / 2 ** 32), 25);
    fixed.writeUInt32LE(Math.floor(o.unpackedSize / 2 ** 32), 29);
  }
  return rar4Block(0x74, flags, Buffer.concat([fixed, field, o.salt ?? Buffer.alloc(0)]));
}

export interface Rar4Options {
  volumeSize?: number;
  base?: string;
  scheme?: 'part' | 'old';
  method?: number;
}

export function writeRar4(members: MemberInput[], opts: Rar4Options = {}): WrittenVolume[] {
  const limit = opts.volumeSize ?? Number.MAX_SAFE_INTEGER;
  const multi = opts.volumeSize !== undefined;
  const scheme = opts.scheme ?? 'part';
  const vols: VolumeBuilder[] = [];
  const start = () => {
    const v = new VolumeBuilder();
    v.put(RAR4_SIG);
    v.put(rar4Main(vols.length === 0, multi, scheme === 'part'));
    vols.push(v);
    return v;
  };
  let cur = start();
  const END = rar4End(0, true).length;
  for (const m of members) {
    const size = sizeOf(m);
    const data = Buffer.isBuffer(m.data) ? m.data : null;
    const headerLength = rar4FileHeader({ name: m.name, unpackedSize: size, dataSize: size, crc: 0 }).length;
    let done = 0;
    let first = true;
    while (first || done < size) {
      let room = limit - cur.size - END - headerLength;
      if (room <= 0 && cur.size > 40) {
        cur.put(rar4End(vols.length - 1, true));
        cur = start();
        room = limit - cur.size - END - headerLength;
      }
      const piece = Math.min(size - done, room);
      const last = done + piece === size;
      const crc = data ? crc32(last && !first ? data : data.subarray(done, done + piece)) : 0;
      cur.put(
        rar4FileHeader({
          name: m.name,
          unpackedSize: size,
          dataSize: piece,
          crc,
          splitBefore: !first,
          splitAfter: !last,
          method: opts.method,
        }),
      );
      if (data) cur.put(data.subarray(done, done + piece));
      else cur.skip(piece);
      done += piece;
      first = false;
      if (!last) {
        cur.put(rar4End(vols.length - 1, true));
        cur = start();
      }
    }
  }
  cur.put(rar4End(vols.length - 1, false));
  const names = multi ? rarVolumeNames(opts.base ?? 'test', vols.length, scheme) : [`${opts.base ?? 'test'}.rar`];
  return vols.map((v, i) => ({ name: names[i]!, size: v.size, chunks: v.chunks }));
}
