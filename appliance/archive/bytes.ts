import { invalid, type ByteSource } from './archive.types.js';

/** Sizes beyond 2^53 cannot be bytes of anything posted; such a field is hostile or damaged. */
export const MAX_SIZE = Number.MAX_SAFE_INTEGER;

/** A cursor over one header's bytes; every read is bounds-checked so a short header fails, never misreads. */
export class Cursor {
  constructor(
    readonly buf: Buffer,
    public at: number,
    private readonly end: number,
    private readonly what: string,
  ) {}

  get left(): number {
    return this.end - this.at;
  }

  private need(n: number): void {
    if (this.at + n > this.end) throw invalid(`${this.what} is truncated`);
  }

  u8(): number {
    this.need(1);
    return this.buf[this.at++]!;
  }
  u16(): number {
    this.need(2);
    const v = this.buf.readUInt16LE(this.at);
    this.at += 2;
    return v;
  }
  u32(): number {
    this.need(4);
    const v = this.buf.readUInt32LE(this.at);
    this.at += 4;
    return v;
  }
  u64(): number {
    this.need(8);
    const v = this.buf.readBigUInt64LE(this.at);
    this.at += 8;
    if (v > BigInt(MAX_SIZE)) throw invalid(`${this.what} has a size field of ${v} bytes`);
    return Number(v);
  }
  bytes(n: number): Buffer {
    this.need(n);
    const v = this.buf.subarray(this.at, this.at + n);
    this.at += n;
    return v;
  }
  /** RAR5 variable-length integer: 7 bits per byte, low first, high bit = more. */
  vint(): number {
    let value = 0;
    for (let shift = 0; shift < 70; shift += 7) {
      const b = this.u8();
      value += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) {
        if (value > MAX_SIZE)
          throw invalid(`${this.what} has a number field of about 2^${Math.round(Math.log2(value))}`);
        return value;
      }
    }
    throw invalid(`${this.what} has a number field longer than 10 bytes`);
  }
}

/** A ByteSource over bytes in memory (tests, nested headers already fetched). */
export function bufferSource(buf: Buffer): ByteSource {
  return {
    size: buf.length,
    read: async (offset, length) => {
      if (offset < 0 || offset + length > buf.length) throw invalid(`read past the end (${offset}+${length})`);
      return buf.subarray(offset, offset + length);
    },
  };
}

/** Reads up to `length` bytes at `offset`, fewer at the end of the source. */
export function readUpTo(source: ByteSource, offset: number, length: number): Promise<Buffer> {
  return source.read(offset, Math.max(0, Math.min(length, source.size - offset)));
}
