/** Multi-line response readers other than the yEnc decoder. */
import { ProtocolError } from './errors.js';
import { LineReader, TerminatorScanner } from './line-reader.js';
import type { BlockSink } from './article-decoder.js';

/** Collects a small text block (HEAD) as dot-unstuffed lines, refusing anything larger than maxBytes. */
export class TextBlockSink implements BlockSink<string[]> {
  private readonly lines: string[] = [];
  private readonly reader: LineReader;
  private size = 0;
  private readonly scanner = new TerminatorScanner();
  private error: Error | undefined;
  private discarding = false;

  constructor(
    maxLineBytes: number,
    private readonly maxBytes: number,
  ) {
    this.reader = new LineReader(maxLineBytes);
  }

  feed(chunk: Buffer, pos: number): number {
    let p = pos;
    while (p < chunk.length) {
      if (this.discarding) return this.scanner.scan(chunk, p);
      // An oversized line throws: the stream cannot be trusted and the connection is dropped.
      const got = this.reader.read(chunk, p);
      if (!got) return -1;
      p = got.next;
      if (got.line === '.') return p;
      this.size += got.line.length + 2;
      if (this.size > this.maxBytes) {
        this.error = new ProtocolError(`Response block larger than ${this.maxBytes} bytes`);
        this.discarding = true;
        this.scanner.reset(true);
        continue;
      }
      this.lines.push(got.line.startsWith('..') ? got.line.slice(1) : got.line);
    }
    return -1;
  }

  result(): string[] {
    if (this.error) throw this.error;
    return this.lines;
  }
}

/** Skips a block without looking at it, counting its bytes (raw fetches, benchmarks). */
export class DiscardSink implements BlockSink<number> {
  private readonly scanner = new TerminatorScanner();
  private bytes = 0;

  feed(chunk: Buffer, pos: number): number {
    const end = this.scanner.scan(chunk, pos);
    this.bytes += (end < 0 ? chunk.length : end) - pos;
    return end;
  }

  result(): number {
    return this.bytes;
  }
}
