import { createDecipheriv } from 'node:crypto';
import type { LayoutCipher } from '../layout/index.js';

const BLOCK = 16;

/**
 * The decryption stage over a ciphertext reader (a member of an encrypted archive, AES-CBC). Plain bytes [offset,
 * end) need the whole blocks that hold them and the block before the first (its ciphertext is that block's IV;
 * block 0 uses the member's IV), so a seek costs at most 16 bytes more. `read(from, to)` yields ciphertext.
 */
export async function* decryptRange(
  cipher: LayoutCipher,
  offset: number,
  end: number,
  read: (from: number, to: number) => AsyncIterable<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  const first = offset - (offset % BLOCK);
  const stop = Math.ceil(end / BLOCK) * BLOCK;
  const ivFrom = first === 0 ? 0 : first - BLOCK;
  let iv: Buffer | null = first === 0 ? Buffer.from(cipher.iv, 'hex') : null;
  const ivParts: Buffer[] = [];
  let ivHave = 0;
  let decipher: ReturnType<typeof createDecipheriv> | null = null;
  let skip = offset - first;
  let left = end - offset;
  for await (const chunk of read(ivFrom, stop)) {
    let data = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (!iv) {
      const take = Math.min(BLOCK - ivHave, data.length);
      ivParts.push(Buffer.from(data.subarray(0, take)));
      ivHave += take;
      data = data.subarray(take);
      if (ivHave < BLOCK) continue;
      iv = Buffer.concat(ivParts);
    }
    decipher ??= createDecipheriv(cipher.algorithm, Buffer.from(cipher.key, 'hex'), iv).setAutoPadding(false);
    if (data.length === 0) continue;
    let plain = decipher.update(data);
    if (skip > 0) {
      const cut = Math.min(skip, plain.length);
      plain = plain.subarray(cut);
      skip -= cut;
    }
    if (plain.length > left) plain = plain.subarray(0, left);
    left -= plain.length;
    if (plain.length > 0) yield plain;
    if (left === 0) return;
  }
}
