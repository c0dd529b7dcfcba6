/** Reads CRLF-terminated lines out of socket chunks, across chunk boundaries, with a hard length limit. */
import { ProtocolError } from './errors.js';

export class LineReader {
  private parts: Buffer[] = [];
  private length = 0;

  constructor(private readonly maxLength: number) {}

  /** Prime the reader with bytes that belong to the line being read (e.g. "=y" already consumed by a decoder). */
  seed(text: string): void {
    const b = Buffer.from(text, 'latin1');
    this.parts.push(b);
    this.length += b.length;
  }

  /** The next whole line (without CR LF) and where the rest starts, or null when the chunk ran out first. */
  read(chunk: Buffer, pos: number): { line: string; next: number } | null {
    const nl = chunk.indexOf(10, pos);
    const end = nl < 0 ? chunk.length : nl;
    if (this.length + (end - pos) > this.maxLength) {
      throw new ProtocolError(`Line longer than ${this.maxLength} bytes`);
    }
    if (nl < 0) {
      if (end > pos) {
        this.parts.push(Buffer.from(chunk.subarray(pos, end)));
        this.length += end - pos;
      }
      return null;
    }
    let bytes = chunk.subarray(pos, nl);
    if (this.parts.length > 0) {
      this.parts.push(bytes);
      bytes = Buffer.concat(this.parts);
      this.parts = [];
      this.length = 0;
    }
    const stop = bytes.length > 0 && bytes[bytes.length - 1] === 13 ? bytes.length - 1 : bytes.length;
    return { line: bytes.toString('latin1', 0, stop), next: nl + 1 };
  }
}

const TERMINATOR = Buffer.from('\r\n.\r\n', 'latin1');

/** Finds the end of a multi-line block ("\r\n.\r\n") without copying, also when it spans chunks. */
export class TerminatorScanner {
  /** How many bytes of "\r\n.\r\n" the stream has matched so far; a block starts at a line start (2). */
  private matched: number;

  constructor(atLineStart = true) {
    this.matched = atLineStart ? 2 : 0;
  }

  /** Start over, e.g. after a decoder gave up mid-article. */
  reset(atLineStart: boolean): void {
    this.matched = atLineStart ? 2 : 0;
  }

  /** Index just after the terminator, or -1 when this chunk (from pos) does not finish the block. */
  scan(chunk: Buffer, pos: number): number {
    let i = pos;
    // Continue a match carried over from the previous chunk.
    while (this.matched > 0 && i < chunk.length) {
      if (chunk[i] === TERMINATOR[this.matched]) {
        this.matched++;
        i++;
        if (this.matched === TERMINATOR.length) return i;
      } else {
        this.matched = chunk[i] === 13 ? 1 : 0;
        i++;
        if (this.matched === 0) break;
      }
    }
    if (i >= chunk.length) return -1;
    const at = chunk.indexOf(TERMINATOR, i);
    if (at >= 0) return at + TERMINATOR.length;
    // Remember a partial terminator at the very end of the chunk.
    this.matched = 0;
    for (let k = Math.min(TERMINATOR.length - 1, chunk.length - i); k > 0; k--) {
      if (chunk.subarray(chunk.length - k).equals(TERMINATOR.subarray(0, k))) {
        this.matched = k;
        break;
      }
    }
    return -1;
  }
}
