/**
 * A store-mode RAR 2.9/3.x ("RAR 4") writer for tests, from the RAR 3.x technical notes (nothing on Debian writes
 * RAR). Independent of appliance/archive; checked against unar/lsar in tests/integration/archive/writers.test.ts.
 * Unicode names are written in the compact LHD_UNICODE encoding with 16-bit literals only (what the notes allow).
 */
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
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

export function rar4Main(first: boolean, multi: boolean, newNaming: boolean, sealed = false): Buffer {
  const flags = (multi ? 0x1 : 0) | (newNaming ? 0x10 : 0) | (sealed ? 0x80 : 0) | (first ? 0x100 : 0);
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
  /** AES-128 encrypt every member (`rar -p`): an 8-byte salt per file, the data CBC-encrypted, zero-padded to 16. */
  password?: string;
  /**
   * Encrypt the headers too (`rar -hp`): the archive header says so (MHD_PASSWORD) and every later block is an
   * 8-byte salt and the header AES-128-CBC encrypted with that salt's key and IV, zero-padded to 16 bytes.
   */
  encryptHeaders?: boolean;
}

function headerSealer(opts: Rar4Options): (block: Buffer) => Buffer {
  if (!opts.encryptHeaders) return (block) => block;
  if (opts.password === undefined) throw new Error('encryptHeaders needs a password');
  const salt = randomBytes(8);
  const { key, iv } = rar3Key(opts.password, salt);
  return (block) => {
    const padded = Buffer.concat([block, Buffer.alloc((16 - (block.length % 16)) % 16)]);
    return Buffer.concat([salt, createCipheriv('aes-128-cbc', key, iv).setAutoPadding(false).update(padded)]);
  };
}

/**
 * RAR 3.x key and IV (RAR 3.x technical notes; unrar's crypt3): SHA-1 over 2^18 rounds of UTF-16LE password, salt
 * and a 3-byte round counter; IV byte k from the running hash after round k * 2^14; the key is the final digest's
 * first four words, each byte-reversed. RAR's SHA-1 wrote each whole 64-byte block it read straight from the input
 * back as the last 16 words of its message schedule (only long passwords reach that); emulated here round by round.
 */
export function rar3Key(password: string, salt: Buffer): { key: Buffer; iv: Buffer } {
  const data = Buffer.concat([Buffer.from(password, 'utf16le'), salt]);
  const sha = createHash('sha1');
  const iv = Buffer.alloc(16);
  let hashed = 0;
  for (let round = 0; round < 0x40000; round++) {
    sha.update(data);
    const lastBoundary = Math.floor((hashed + data.length) / 64) * 64;
    for (let block = Math.floor(hashed / 64) * 64 + 64; block < lastBoundary; block += 64) {
      rewriteBlock(data, block - hashed);
    }
    hashed += data.length + 3;
    sha.update(Buffer.from([round & 0xff, (round >> 8) & 0xff, round >> 16]));
    if (round % 0x4000 === 0) iv[round / 0x4000] = sha.copy().digest()[19]!;
  }
  const digest = sha.digest();
  const key = Buffer.alloc(16);
  for (let i = 0; i < 16; i++) key[i] = digest[(i & ~3) + 3 - (i & 3)]!;
  return { key, iv };
}

function rewriteBlock(data: Buffer, at: number): void {
  const w: number[] = [];
  for (let t = 0; t < 80; t++) {
    if (t < 16) w.push(data.readUInt32BE(at + 4 * t));
    else {
      const x = (w[t - 3]! ^ w[t - 8]! ^ w[t - 14]! ^ w[t - 16]!) >>> 0;
      w.push(((x << 1) | (x >>> 31)) >>> 0);
    }
  }
  for (let t = 0; t < 16; t++) data.writeUInt32LE(w[64 + t]!, at + 4 * t);
}

/** The member's stored bytes: AES-128-CBC of its data zero-padded to whole blocks, and the salt in its header. */
function encrypt(data: Buffer, password: string): { stored: Buffer; salt: Buffer } {
  const salt = randomBytes(8);
  const { key, iv } = rar3Key(password, salt);
  const padded = Buffer.concat([data, Buffer.alloc((16 - (data.length % 16)) % 16)]);
  const c = createCipheriv('aes-128-cbc', key, iv).setAutoPadding(false);
  return { stored: Buffer.concat([c.update(padded), c.final()]), salt };
}

export function writeRar4(members: MemberInput[], opts: Rar4Options = {}): WrittenVolume[] {
  const limit = opts.volumeSize ?? Number.MAX_SAFE_INTEGER;
  const multi = opts.volumeSize !== undefined;
  const scheme = opts.scheme ?? 'part';
  const vols: VolumeBuilder[] = [];
  const seal = headerSealer(opts);
  const start = () => {
    const v = new VolumeBuilder();
    v.put(RAR4_SIG);
    v.put(rar4Main(vols.length === 0, multi, scheme === 'part', opts.encryptHeaders));
    vols.push(v);
    return v;
  };
  const end = (more: boolean) => seal(rar4End(vols.length - 1, more));
  let cur = start();
  const END = end(true).length;
  for (const m of members) {
    const plain = Buffer.isBuffer(m.data) ? m.data : null;
    if (opts.password !== undefined && !plain) throw new Error('an encrypted member needs its bytes');
    const sealed = opts.password !== undefined && plain ? encrypt(plain, opts.password) : null;
    const data = sealed?.stored ?? plain;
    const unpackedSize = sizeOf(m);
    const size = data?.length ?? unpackedSize;
    const sealing = sealed ? { extraFlags: 0x4, salt: sealed.salt } : {};
    const headerLength = seal(
      rar4FileHeader({ name: m.name, unpackedSize, dataSize: size, crc: 0, ...sealing }),
    ).length;
    // CBC runs on across volumes (unrar does not restart it); pieces are still cut at whole blocks, as rar does
    const fit = (room: number) => (sealed ? room - (room % 16) : room);
    let done = 0;
    let first = true;
    while (first || done < size) {
      let room = fit(limit - cur.size - END - headerLength);
      if (room <= 0 && cur.size > 40) {
        cur.put(end(true));
        cur = start();
        room = fit(limit - cur.size - END - headerLength);
      }
      const piece = Math.min(size - done, room);
      const last = done + piece === size;
      // a piece's CRC is of its stored bytes; the last piece's of the whole member's plain bytes
      const crc = data ? crc32(last ? (plain ?? data) : data.subarray(done, done + piece)) : 0;
      cur.put(
        seal(
          rar4FileHeader({
            name: m.name,
            unpackedSize,
            dataSize: piece,
            crc,
            splitBefore: !first,
            splitAfter: !last,
            method: opts.method,
            ...sealing,
          }),
        ),
      );
      if (data) cur.put(data.subarray(done, done + piece));
      else cur.skip(piece);
      done += piece;
      first = false;
      if (!last) {
        cur.put(end(true));
        cur = start();
      }
    }
  }
  cur.put(end(false));
  const names = multi ? rarVolumeNames(opts.base ?? 'test', vols.length, scheme) : [`${opts.base ?? 'test'}.rar`];
  return vols.map((v, i) => ({ name: names[i]!, size: v.size, chunks: v.chunks }));
}
