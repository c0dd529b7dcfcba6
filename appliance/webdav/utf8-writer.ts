/**
 * A PROPFIND answer written as UTF-8 straight into one growing Buffer: each entry's string is encoded once, in
 * place, instead of into a Buffer of its own that is copied again into the answer (a listing of 10,000 entries is
 * ~9 MB). `bytes()` is a view of what was written, the Buffer handed to the reply as it is.
 */
export class Utf8Writer {
  private buf: Buffer;
  private length = 0;

  constructor(expectedBytes: number) {
    this.buf = Buffer.allocUnsafe(Math.max(1024, expectedBytes));
  }

  write(s: string): void {
    // a UTF-16 code unit is at most 3 bytes of UTF-8: with that much room `write` never stops short; with less,
    // the exact length is counted (near the end of the first allocation) before growing
    const room = this.buf.length - this.length;
    if (room < s.length * 3 && room < Buffer.byteLength(s, 'utf8')) this.grow(Buffer.byteLength(s, 'utf8'));
    this.length += this.buf.write(s, this.length, 'utf8');
  }

  bytes(): Buffer {
    return this.buf.subarray(0, this.length);
  }

  private grow(atLeast: number): void {
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.length + atLeast));
    this.buf.copy(next, 0, 0, this.length);
    this.buf = next;
  }
}
