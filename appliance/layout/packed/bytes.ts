/**
 * Byte and bit streams for the packed layout (layout-codec.ts): varints over JS numbers (whole numbers up to
 * 2^53), zigzag for signed ones, raw float64, length-prefixed UTF-8, and a bit stream for fixed-width values.
 * The reader checks every bound and throws `LayoutCodecError`, never reads past its buffer.
 */

/** Stored layout bytes that cannot be decoded (damaged, truncated or not a packed layout). */
export class LayoutCodecError extends Error {
  constructor(readonly detail: string) {
    super(`damaged packed layout: ${detail}`);
    this.name = 'LayoutCodecError';
  }
}

/** Signed whole numbers within this bound zigzag into a safe integer. */
export const ZIGZAG_LIMIT = 2 ** 51;

export const zigzag = (v: number) => (v >= 0 ? v * 2 : -v * 2 - 1);
export const unzigzag = (z: number) => (z % 2 === 0 ? z / 2 : -(z + 1) / 2);

const utf8 = new TextEncoder();
const utf8Strict = new TextDecoder('utf-8', { fatal: true });

export class ByteWriter {
  private buf = new Uint8Array(256);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  byte(v: number): void {
    this.room(1);
    this.buf[this.length++] = v;
  }

  /** A whole number in [0, 2^53). */
  uint(v: number): void {
    this.room(8);
    while (v >= 128) {
      this.buf[this.length++] = (v % 128) | 128;
      v = Math.floor(v / 128);
    }
    this.buf[this.length++] = v;
  }

  sint(v: number): void {
    this.uint(zigzag(v));
  }

  f64(v: number): void {
    this.room(8);
    new DataView(this.buf.buffer).setFloat64(this.length, v, true);
    this.length += 8;
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  string(s: string): void {
    const b = utf8.encode(s);
    this.uint(b.length);
    this.bytes(b);
  }

  finish(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}

export class ByteReader {
  private pos = 0;
  private view: DataView;

  constructor(private readonly buf: Uint8Array) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  get remaining(): number {
    return this.buf.length - this.pos;
  }

  private need(n: number, what: string): void {
    if (n > this.buf.length - this.pos) throw new LayoutCodecError(`${what} runs past the end (byte ${this.pos})`);
  }

  byte(): number {
    this.need(1, 'a byte');
    return this.buf[this.pos++]!;
  }

  uint(): number {
    let v = 0;
    let scale = 1;
    for (let i = 0; i < 8; i++) {
      const b = this.byte();
      v += (b & 127) * scale;
      if (b < 128) {
        if (v > Number.MAX_SAFE_INTEGER) throw new LayoutCodecError(`a number above 2^53 at byte ${this.pos}`);
        return v;
      }
      scale *= 128;
    }
    throw new LayoutCodecError(`a varint longer than 8 bytes at byte ${this.pos}`);
  }

  /** A count that must not exceed `max` (guards allocations sized by the data). */
  count(max: number, what: string): number {
    const n = this.uint();
    if (n > max) throw new LayoutCodecError(`${what} ${n} exceeds ${max}`);
    return n;
  }

  sint(): number {
    return unzigzag(this.uint());
  }

  f64(): number {
    this.need(8, 'a float');
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }

  bytes(n: number): Uint8Array {
    this.need(n, `${n} bytes`);
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  string(): string {
    const n = this.uint();
    try {
      return utf8Strict.decode(this.bytes(n));
    } catch (e) {
      if (e instanceof LayoutCodecError) throw e;
      throw new LayoutCodecError(`invalid UTF-8 before byte ${this.pos}`);
    }
  }
}

/** Fixed-width values (up to 52 bits each) written back to back, least significant bit first. */
export class BitWriter {
  private acc = 0; // fewer than 8 pending bits
  private bits = 0;

  constructor(private readonly out: ByteWriter) {}

  write(value: number, width: number): void {
    if (width > 24) {
      const low = value % 0x1000000;
      this.write(low, 24);
      this.write((value - low) / 0x1000000, width - 24);
      return;
    }
    this.acc = (this.acc | (value << this.bits)) >>> 0;
    this.bits += width;
    while (this.bits >= 8) {
      this.out.byte(this.acc & 255);
      this.acc >>>= 8;
      this.bits -= 8;
    }
  }

  flush(): void {
    if (this.bits > 0) this.out.byte(this.acc & 255);
    this.acc = 0;
    this.bits = 0;
  }
}

export class BitReader {
  private acc = 0; // `bits` pending bits, at most 31
  private bits = 0;

  constructor(private readonly input: ByteReader) {}

  read(width: number): number {
    if (width > 24) {
      const low = this.read(24);
      return low + this.read(width - 24) * 0x1000000;
    }
    while (this.bits < width) {
      this.acc = (this.acc | (this.input.byte() << this.bits)) >>> 0;
      this.bits += 8;
    }
    const value = width === 0 ? 0 : (this.acc & (0xffffffff >>> (32 - width))) >>> 0;
    this.acc = width === 32 ? 0 : this.acc >>> width;
    this.bits -= width;
    return value;
  }

  /** Drops the bits left in the current byte (the writer flushed there). */
  align(): void {
    this.acc = 0;
    this.bits = 0;
  }
}
