/**
 * A store-mode RAR 5.0 writer for tests, from rarlab's "RAR 5.0 archive format" technote (nothing on Debian writes
 * RAR). Independent of appliance/archive: checked against unar/lsar and bsdtar in rar5-writer.test.ts.
 * Multi-volume: a member that does not fit is split, each piece under its own file header with the split flags;
 * a piece's CRC is of its own data, the last piece's of the whole member (as the technote says).
 */
import { createCipheriv, createHash, pbkdf2Sync, randomBytes } from 'node:crypto';
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
  /** AES-256 encrypt every member (store mode: the data area is the CBC ciphertext, zero-padded to 16 bytes). */
  password?: string;
  /** log2 of the PBKDF2 iterations (RAR's default is 15). */
  kdfLog2?: number;
  /** Encrypt the headers too (`rar -hp`): an archive encryption header, then each header as IV + AES-CBC. */
  encryptHeaders?: boolean;
}

/** `seal(block)` for header encryption, and the plain archive encryption header that announces it. */
function headerSealer(opts: Rar5Options): { cryptHeader: Buffer; seal: (b: Buffer) => Buffer } | null {
  if (!opts.encryptHeaders || opts.password === undefined) return null;
  const kdfLog2 = opts.kdfLog2 ?? 15;
  const salt = randomBytes(16);
  const { key, check } = rar5Keys(opts.password, salt, kdfLog2);
  const cryptHeader = rar5Block(
    Buffer.concat([vint(4), vint(0), vint(0), vint(1), Buffer.from([kdfLog2]), salt, check]),
  );
  const seal = (block: Buffer) => {
    const iv = randomBytes(16);
    const padded = Buffer.concat([block, Buffer.alloc((16 - (block.length % 16)) % 16)]);
    const c = createCipheriv('aes-256-cbc', key, iv).setAutoPadding(false);
    return Buffer.concat([iv, c.update(padded), c.final()]);
  };
  return { cryptHeader, seal };
}

/** RAR5 key and password check value from the technote: PBKDF2-HMAC-SHA256, check after 32 more rounds, folded. */
export function rar5Keys(password: string, salt: Buffer, kdfLog2: number): { key: Buffer; check: Buffer } {
  const key = pbkdf2Sync(password, salt, 2 ** kdfLog2, 32, 'sha256');
  const v = pbkdf2Sync(password, salt, 2 ** kdfLog2 + 32, 32, 'sha256');
  const fold = Buffer.alloc(8);
  for (let i = 0; i < 32; i++) fold[i % 8]! ^= v[i]!;
  const sum = createHash('sha256').update(fold).digest().subarray(0, 4);
  return { key, check: Buffer.concat([fold, sum]) };
}

/** The file encryption extra record (type 0x01): version 0, password check present. */
export function encryptionRecord(kdfLog2: number, salt: Buffer, iv: Buffer, check: Buffer): Buffer {
  const body = Buffer.concat([vint(0x01), vint(0), vint(0x1), Buffer.from([kdfLog2]), salt, iv, check]);
  return Buffer.concat([vint(body.length), body]);
}

interface Prepared {
  data: Buffer | null;
  size: number;
  stored: number;
  extra?: Buffer;
}

function prepare(m: MemberInput, opts: Rar5Options): Prepared {
  const size = sizeOf(m);
  const data = Buffer.isBuffer(m.data) ? m.data : null;
  if (opts.password === undefined) return { data, size, stored: size, extra: opts.extraFor?.(m) };
  const kdfLog2 = opts.kdfLog2 ?? 15;
  const salt = randomBytes(16);
  const iv = randomBytes(16);
  const { key, check } = rar5Keys(opts.password, salt, kdfLog2);
  const padded = Math.ceil(size / 16) * 16;
  let cipher: Buffer | null = null;
  if (data) {
    const c = createCipheriv('aes-256-cbc', key, iv).setAutoPadding(false);
    cipher = Buffer.concat([c.update(Buffer.concat([data, Buffer.alloc(padded - size)])), c.final()]);
  }
  return { data: cipher, size, stored: padded, extra: encryptionRecord(kdfLog2, salt, iv, check) };
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
  const sealer = headerSealer(opts);
  const seal = (b: Buffer) => (sealer ? sealer.seal(b) : b);
  let cur = start(0);
  function start(index: number): VolumeBuilder {
    const v = new VolumeBuilder();
    v.put(RAR5_SIG);
    if (sealer) v.put(sealer.cryptHeader);
    v.put(seal(mainHeader(index, multi)));
    vols.push(v);
    return v;
  }
  const END = seal(endHeader(true)).length;
  for (const m of members) {
    const { data, size, stored, extra } = prepare(m, opts);
    // the CRC is of the plain bytes for a whole member, of the stored bytes for each piece of a split one
    const plain = Buffer.isBuffer(m.data) ? m.data : null;
    let done = 0;
    let first = true;
    while (first || done < stored) {
      const probe = seal(fileHeader({ name: m.name, unpackedSize: size, dataSize: stored - done, crc: 0, extra }));
      let room = limit - cur.size - END - probe.length;
      if (room <= 0 && cur.size > RAR5_SIG.length + 16) {
        cur = start(vols.length);
        room = limit - cur.size - END - probe.length;
      }
      if (room <= 0) throw new Error('volume size too small for a header');
      let piece = Math.min(stored - done, room);
      if (extra && opts.password !== undefined && piece < stored - done) piece -= piece % 16; // whole AES blocks
      const last = done + piece === stored;
      const crc = data && plain ? crc32(last ? plain : data.subarray(done, done + piece)) : undefined;
      cur.put(
        seal(
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
        ),
      );
      if (data) cur.put(data.subarray(done, done + piece));
      else cur.skip(piece);
      done += piece;
      first = false;
      if (!last) {
        cur.put(seal(endHeader(true)));
        cur = start(vols.length);
      }
    }
  }
  cur.put(seal(endHeader(false)));
  const names = rarVolumeNames(opts.base ?? 'test', vols.length, opts.scheme ?? 'part');
  if (vols.length === 1 && !multi) names[0] = `${opts.base ?? 'test'}.rar`;
  return vols.map((v, i) => ({ name: names[i]!, size: v.size, chunks: v.chunks }));
}
