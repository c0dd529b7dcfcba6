import { createHash, type Hash } from 'node:crypto';

/**
 * RAR 3.x (RAR 4 format) AES-128 key and IV, as RAR 2.9/3.x derive them (described in the RAR 3.x technical notes
 * and implemented alike by unrar and 7-Zip's RarAes): SHA-1 over 2^18 rounds of (password as UTF-16LE, the 8-byte
 * salt, the round number as 3 little-endian bytes). IV byte i is the last byte of the digest of the hash so far
 * after round i * 2^14; the key is the first 16 bytes of the final digest with each 32-bit word byte-reversed.
 *
 * RAR's own SHA-1 also wrote the message schedule of each whole 64-byte block it hashed straight from the buffer
 * back into that buffer, so with password + salt longer than 64 bytes (passwords of 29+ characters) later rounds
 * hash altered bytes. That quirk is reproduced (`scramble`); shorter inputs never trigger it and are hashed in
 * batches.
 */
const ROUNDS = 1 << 18;
const IV_EVERY = ROUNDS / 16;
/** RAR 3 reads at most 127 UTF-16 units of a password. */
const MAX_PASSWORD_UNITS = 127;

export async function rar3KeyIv(password: string, saltHex: string): Promise<{ key: Buffer; iv: Buffer }> {
  const pw = Buffer.from(password, 'utf16le').subarray(0, MAX_PASSWORD_UNITS * 2);
  const raw = Buffer.concat([pw, Buffer.from(saltHex, 'hex')]);
  const hash = createHash('sha1');
  const iv = Buffer.alloc(16);
  const ivByte = (h: Hash, round: number) => (iv[round / IV_EVERY] = h.copy().digest()[19]!);
  if (raw.length <= 64) await batched(hash, raw, ivByte);
  else await scrambled(hash, raw, ivByte);
  const digest = hash.digest();
  const key = Buffer.alloc(16);
  for (let w = 0; w < 4; w++) for (let j = 0; j < 4; j++) key[w * 4 + j] = digest[w * 4 + 3 - j]!;
  return { key, iv };
}

/** Each group of 2^14 rounds: the first round alone (its IV byte), then the other rounds in one update. */
async function batched(hash: Hash, raw: Buffer, ivByte: (h: Hash, round: number) => void): Promise<void> {
  const unit = raw.length + 3;
  const buf = Buffer.alloc(unit * IV_EVERY);
  for (let i = 0; i < IV_EVERY; i++) raw.copy(buf, i * unit);
  for (let start = 0; start < ROUNDS; start += IV_EVERY) {
    for (let i = 0; i < IV_EVERY; i++) buf.writeUIntLE(start + i, i * unit + raw.length, 3);
    hash.update(buf.subarray(0, unit));
    ivByte(hash, start);
    hash.update(buf.subarray(unit));
    await new Promise((r) => setImmediate(r)); // 16 turns for the event loop over the ~8 MB hashed
  }
}

async function scrambled(hash: Hash, raw: Buffer, ivByte: (h: Hash, round: number) => void): Promise<void> {
  const buf = Buffer.from(raw);
  const counter = Buffer.alloc(3);
  let pos = 0; // bytes hashed so far
  for (let i = 0; i < ROUNDS; i++) {
    hash.update(buf);
    scramble(buf, pos);
    pos += buf.length;
    counter.writeUIntLE(i, 0, 3);
    hash.update(counter);
    pos += 3;
    if (i % IV_EVERY === 0) {
      ivByte(hash, i);
      await new Promise((r) => setImmediate(r));
    }
  }
}

/**
 * The 64-byte blocks that RAR's SHA-1 took straight from `buf` (hashed from stream position `pos`): whole blocks
 * starting at the first block boundary after `pos` and ending inside `buf`. Each is overwritten with the last 16
 * words of its SHA-1 message schedule, stored little-endian.
 */
function scramble(buf: Buffer, pos: number): void {
  const end = (pos + buf.length) & ~63;
  if (end <= pos + 64) return;
  for (let at = (pos & ~63) + 64; at !== end; at += 64) {
    const off = at - pos;
    const w = new Uint32Array(80);
    for (let t = 0; t < 16; t++) w[t] = buf.readUInt32BE(off + t * 4);
    for (let t = 16; t < 80; t++) {
      const x = w[t - 3]! ^ w[t - 8]! ^ w[t - 14]! ^ w[t - 16]!;
      w[t] = (x << 1) | (x >>> 31);
    }
    for (let t = 0; t < 16; t++) buf.writeUInt32LE(w[64 + t]!, off + t * 4);
  }
}
