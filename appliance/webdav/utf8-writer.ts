/**
 * A PROPFIND answer written as UTF-8 straight into one growing Buffer: each entry's string is encoded once, in
 * place, instead of into a Buffer of its own that is copied again into the answer (a listing of 10,000 entries is
 * ~9 MB). Bytes kept from an earlier answer are copied in as they are (`copy`), consecutive ranges of one source
 * in one copy (a listing asked again is one range of the answer before). `bytes()` is a view of what was written,
 * the Buffer handed to the reply as it is.
 */
export class Utf8Writer {
  private buf: Buffer;
  private written = 0;
  /** A range of `runFrom` waiting to be copied: `copy` calls that follow on from each other become one copy. */
  private runFrom: Buffer | null = null;
  private runStart = 0;
  private runEnd = 0;

  constructor(expectedBytes: number) {
    this.buf = Buffer.allocUnsafe(Math.max(1024, expectedBytes));
  }

  /** How many bytes the answer holds so far (where the next write or copy lands). */
  get length(): number {
    return this.written + (this.runEnd - this.runStart);
  }

  write(s: string): void {
    if (this.runFrom) this.flushRun();
    // a UTF-16 code unit is at most 3 bytes of UTF-8: with that much room `write` never stops short; with less,
    // the exact length is counted (near the end of the first allocation) before growing
    const room = this.buf.length - this.written;
    if (room < s.length * 3 && room < Buffer.byteLength(s, 'utf8')) this.grow(Buffer.byteLength(s, 'utf8'));
    this.written += this.buf.write(s, this.written, 'utf8');
  }

  /** Appends `from[start, end)`: bytes already encoded (an entry kept from an earlier answer). */
  copy(from: Buffer, start: number, end: number): void {
    if (this.runFrom === from && this.runEnd === start) {
      this.runEnd = end;
      return;
    }
    if (this.runFrom) this.flushRun();
    this.runFrom = from;
    this.runStart = start;
    this.runEnd = end;
  }

  bytes(): Buffer {
    if (this.runFrom) this.flushRun();
    return this.buf.subarray(0, this.written);
  }

  private flushRun(): void {
    const from = this.runFrom as Buffer;
    const { runStart, runEnd } = this;
    this.runFrom = null;
    this.runStart = this.runEnd = 0;
    if (this.buf.length - this.written < runEnd - runStart) this.grow(runEnd - runStart);
    this.written += from.copy(this.buf, this.written, runStart, runEnd);
  }

  private grow(atLeast: number): void {
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.written + atLeast));
    this.buf.copy(next, 0, 0, this.written);
    this.buf = next;
  }
}
