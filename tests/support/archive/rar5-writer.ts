/**
 * A store-mode RAR 5.0 writer for tests, from rarlab's "RAR 5.0 archive format" technote (nothing on Debian writes
 * RAR). Independent of appliance/archive: checked against unar/lsar and bsdtar in rar5-writer.test.ts.
 * Multi-volume: a member that does not fit is split, each piece under its own file header with the split flags;
 * a piece's CRC is of its own data, the last piece's of the whole member (as the technote says).
 */
import { crc32 } from 'node:zlib';
import { sizeOf, VolumeBuilder, rarVolumeNames, type MemberInput, type WrittenVolume } from './volumes.js';

export const RAR5_SIG = Buffer.from([0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x01, 0x00]);

export function vint(n: number): Buffer {
  const out: number[] = [];
  let v = n;
  do {
    let b = v % 128;
    v = Math.floor(v / 128);
    if (v > 0) b |= 0x80;
    out.push(b);
  } while (v > 0);
  return Buffer.from(out);
}

/** CRC32 | vint size | header; `fields` starts at the header type. */
export function rar5Block(fields: Buffer): Buffer {
  const body = Buffer.concat([vint(fields.length), fields]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32LE(crc32(body));
  return Buffer.concat([crc, body]);
}

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};

export interface Rar5Options {
  /** Largest volume in bytes; omitted = one volume. */
  volumeSize?: number;
  base?: string;
  scheme?: 'part' | 'old';
  /** Compression method to claim in the headers (0 = store; others only to test refusal: data is still raw). */
  method?: number;
  /** Per-file extra area bytes (an encryption record) and a transform of the stored data (encryption). */
  extraFor?: (m: MemberInput) => Buffer | undefined;
  /** Extra header flags bits to set on main header (tests of hostile input). */
}

export function mainHeader(volumeIndex: number, multi: boolean): Buffer {
  const archiveFlags = (multi ? 0x1 : 0) | (volumeIndex > 0 ? 0x2 : 0);
  const fields = [vint(1), vint(0), vint(archiveFlags)];
  if (volumeIndex > 0) fields.push(vint(volumeIndex));
  return rar5Block(Buffer.concat(fields));
}

export function endHeader(more: boolean): Buffer {
  return rar5Block(Buffer.concat([vint(5), vint(0), vint(more ? 1 : 0)]));
}

export function fileHeader(opts: {
  name: string;
  unpackedSize: number;
  dataSize: number;
  crc?: number;
  mtime?: number;
  splitBefore?: boolean;
  splitAfter?: boolean;
  method?: number;
  extra?: Buffer;
  directory?: boolean;
}): Buffer {
  const name = Buffer.from(opts.name, 'utf8');
  const extra = opts.extra ?? Buffer.alloc(0);
  const headerFlags = (extra.length ? 0x1 : 0) | 0x2 | (opts.splitBefore ? 0x8 : 0) | (opts.splitAfter ? 0x10 : 0);
  const fileFlags = (opts.directory ? 0x1 : 0) | 0x2 | (opts.crc !== undefined ? 0x4 : 0);
  const fields = [vint(2), vint(headerFlags)];
  if (extra.length) fields.push(vint(extra.length));
  fields.push(vint(opts.dataSize), vint(fileFlags), vint(opts.unpackedSize), vint(opts.directory ? 0o40755 : 0o100644));
  fields.push(u32(opts.mtime ?? 1_700_000_000));
  if (opts.crc !== undefined) fields.push(u32(opts.crc));
  fields.push(vint((opts.method ?? 0) << 7), vint(1), vint(name.length), name, extra);
  return rar5Block(Buffer.concat(fields));
}

/** Writes members into one or more volumes. */
export function writeRar5(members: MemberInput[], opts: Rar5Options = {}): WrittenVolume[] {
  const limit = opts.volumeSize ?? Number.MAX_SAFE_INTEGER;
  const multi = opts.volumeSize !== undefined;
  const vols: VolumeBuilder[] = [];
  let cur = start(0);
  function start(index: number): VolumeBuilder {
    const v = new VolumeBuilder();
    v.put(RAR5_SIG);
    v.put(mainHeader(index, multi));
    vols.push(v);
    return v;
  }
  const END = endHeader(true).length;
  for (const m of members) {
    const size = sizeOf(m);
    const data = Buffer.isBuffer(m.data) ? m.data : null;
    const extra = opts.extraFor?.(m);
    let done = 0;
    let first = true;
    while (first || done < size) {
      const probe = fileHeader({ name: m.name, unpackedSize: size, dataSize: size - done, crc: 0, extra });
      let room = limit - cur.size - END - probe.length;
      if (room <= 0 && cur.size > RAR5_SIG.length + 16) {
        cur = start(vols.length);
        room = limit - cur.size - END - probe.length;
      }
      if (room <= 0) throw new Error('volume size too small for a header');
      const piece = Math.min(size - done, room);
      const last = done + piece === size;
      const crc = data ? crc32(last && !first ? data : data.subarray(done, done + piece)) : undefined;
      cur.put(
        fileHeader({
          name: m.name,
          unpackedSize: size,
          dataSize: piece,
          crc,
          mtime: m.mtime,
          splitBefore: !first,
          splitAfter: !last,
          method: opts.method,
          extra,
        }),
      );
      if (data) cur.put(data.subarray(done, done + piece));
      else cur.skip(piece);
      done += piece;
      first = false;
      if (!last) {
        cur.put(endHeader(true));
        cur = start(vols.length);
      }
    }
  }
  cur.put(endHeader(false));
  const names = rarVolumeNames(opts.base ?? 'test', vols.length, opts.scheme ?? 'part');
  if (vols.length === 1 && !multi) names[0] = `${opts.base ?? 'test'}.rar`;
  return vols.map((v, i) => ({ name: names[i]!, size: v.size, chunks: v.chunks }));
}
