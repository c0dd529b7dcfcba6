/**
 * Decodes one BODY response (after its 222 status line) as bytes arrive: yEnc header lines, then the encoded data
 * straight from each socket chunk into the article's output buffer, then the =yend trailer and the "." line.
 * On bad article content (CRC, size, structure) it keeps reading to the end of the article, so the connection stays
 * in step, and reports it; a broken stream (a line over the limit) throws, and the connection is dropped.
 */
import { CorruptArticleError, NntpError, ProtocolError } from './errors.js';
import { LineReader, TerminatorScanner } from './line-reader.js';
import type { YencBackend } from './yenc-backend.js';
import { nameFromHeader } from '../text/names.js';
import { crcField, intField, parseYencLine } from './yenc-header.js';
import type { YencHeader } from './types.js';

export interface BlockSink<T> {
  /** Consume from `chunk` at `pos`; the index after the block's end, or -1 when more bytes are needed. */
  feed(chunk: Buffer, pos: number): number;
  /** The outcome once the block has ended: the value, or the error it found. */
  result(): T;
}

export interface DecodeLimits {
  maxLineBytes: number;
  /** Largest decoded part accepted; a header announcing more is treated as corrupt. */
  maxPartBytes: number;
  /** Lines tolerated before =ybegin (some posters add text). */
  maxPreambleLines: number;
}

export const DEFAULT_DECODE_LIMITS: DecodeLimits = {
  maxLineBytes: 8192,
  maxPartBytes: 64 << 20,
  maxPreambleLines: 200,
};

type Phase = 'preamble' | 'ypart' | 'data' | 'trailer' | 'discard' | 'done';

export interface DecodedPart extends YencHeader {
  data: Buffer;
}

export class YencArticleDecoder implements BlockSink<DecodedPart> {
  private phase: Phase = 'preamble';
  private lines: LineReader;
  private readonly scanner = new TerminatorScanner();
  private error: NntpError | undefined;
  private preambleLines = 0;
  private begin: Record<string, string> = {};
  private header: YencHeader | undefined;
  private out: Buffer | undefined;
  private written = 0;
  private overflow = false;
  private state: string | null = null;
  private yend: Record<string, string> | undefined;

  constructor(
    private readonly backend: YencBackend,
    private readonly limits: DecodeLimits,
    /** A scratch buffer owned by the connection, reused for the few chunks that would overflow the output. */
    private readonly scratch: { buf: Buffer },
    private readonly into?: Buffer,
  ) {
    this.lines = new LineReader(limits.maxLineBytes);
  }

  /** Decoded bytes the part still lacks; Infinity until its header was read. */
  get remaining(): number {
    return this.header ? this.header.partSize - this.written : Infinity;
  }

  feed(chunk: Buffer, pos: number): number {
    let p = pos;
    let lineDone = false;
    while (p < chunk.length) {
      try {
        if (this.phase === 'data') p = this.decodeData(chunk, p);
        else if (this.phase === 'discard') {
          const end = this.scanner.scan(chunk, p);
          if (end >= 0) this.phase = 'done';
          p = end < 0 ? chunk.length : end;
        } else {
          lineDone = false;
          const got = this.lines.read(chunk, p);
          if (!got) return -1;
          p = got.next;
          lineDone = true;
          this.onLine(got.line);
        }
      } catch (err) {
        // After a bad but complete line we are at a line start; after an oversized one we are mid-line.
        this.fail(err, lineDone);
      }
      if (this.phase === 'done') return p;
    }
    return -1;
  }

  result(): DecodedPart {
    if (this.error) throw this.error;
    if (!this.header || !this.out) throw new CorruptArticleError('Article ended before its yEnc data');
    return { ...this.header, data: this.out.subarray(0, this.written) };
  }

  private fail(err: unknown, atLineStart: boolean): void {
    // A broken stream (oversized line) cannot be resynchronised: the connection must go.
    if (!(err instanceof NntpError) || err instanceof ProtocolError) throw err;
    this.error ??= err;
    if (this.phase === 'done') return;
    this.phase = 'discard';
    this.scanner.reset(atLineStart);
  }

  private onLine(raw: string): void {
    if (raw === '.') {
      this.phase = 'done';
      if (!this.error) this.finishAtTerminator();
      return;
    }
    const line = raw.startsWith('..') ? raw.slice(1) : raw;
    if (this.phase === 'preamble') {
      if (line.startsWith('=ybegin ')) return this.onBegin(line);
      if (++this.preambleLines > this.limits.maxPreambleLines) throw new CorruptArticleError('No =ybegin line');
      return;
    }
    if (this.phase === 'ypart') {
      if (!line.startsWith('=ypart ')) throw new CorruptArticleError('=ybegin with part= is not followed by =ypart');
      const f = parseYencLine(line);
      this.startData(intField(f, 'begin', true)!, intField(f, 'end', true)!);
      return;
    }
    // trailer: the first line is "=yend ..." (its "=y" was consumed by the decoder and seeded back).
    if (!this.yend && line.startsWith('=yend')) this.yend = parseYencLine(line);
  }

  private onBegin(line: string): void {
    this.begin = parseYencLine(line);
    const size = intField(this.begin, 'size', true)!;
    if (this.begin.part !== undefined) this.phase = 'ypart';
    else this.startData(1, size);
  }

  private startData(begin: number, end: number): void {
    const totalSize = intField(this.begin, 'size', true)!;
    const part = intField(this.begin, 'part', false) ?? 1;
    const partSize = end - begin + 1;
    if (begin < 1 || partSize < 0 || end > totalSize) {
      throw new CorruptArticleError(`yEnc part range ${begin}-${end} does not fit size ${totalSize}`);
    }
    if (partSize > this.limits.maxPartBytes)
      throw new CorruptArticleError(`yEnc part of ${partSize} bytes is too large`);
    this.header = {
      name: nameFromHeader(this.begin.name ?? ''),
      totalSize,
      part,
      totalParts: intField(this.begin, 'total', false),
      begin,
      end,
      partSize,
      crc: undefined,
    };
    this.out = this.into && this.into.length >= partSize ? this.into : Buffer.allocUnsafeSlow(partSize);
    this.phase = 'data';
  }

  private decodeData(chunk: Buffer, pos: number): number {
    const out = this.out!;
    const input = chunk.subarray(pos);
    const room = this.header!.partSize - this.written;
    let r;
    if (room >= input.length) {
      r = this.backend.decodeChunk(input, out.subarray(this.written), this.state);
      this.written += r.written;
    } else if (room >= 4096) {
      // A pipelined chunk holds this article's tail and the next article. Decoding never expands (every output
      // byte takes at least one input byte), so the first `room` input bytes decode straight into the output;
      // only the last few escaped bytes go through scratch, not the whole rest of the chunk.
      r = this.backend.decodeChunk(input.subarray(0, room), out.subarray(this.written), this.state);
      this.written += r.written;
      if (!r.ended) {
        this.state = r.state;
        return pos + r.read;
      }
    } else {
      // The native decoder does not bound its writes: decode into scratch and copy what fits.
      if (this.scratch.buf.length < input.length) this.scratch.buf = Buffer.allocUnsafeSlow(input.length * 2);
      r = this.backend.decodeChunk(input, this.scratch.buf, this.state);
      const fit = Math.min(room, r.written);
      this.scratch.buf.copy(out, this.written, 0, fit);
      this.written += fit;
      if (r.written > fit) this.overflow = true;
    }
    this.state = r.state;
    if (!r.ended) return chunk.length;
    if (r.state === '\r\n.\r\n') {
      this.phase = 'done';
      this.error ??= new CorruptArticleError('Article ended without =yend');
    } else {
      this.phase = 'trailer';
      this.lines.seed('=y');
    }
    return pos + r.read;
  }

  private finishAtTerminator(): void {
    if (!this.header || this.phase !== 'done' || !this.yend) {
      this.error = new CorruptArticleError(this.header ? 'Article ended without =yend' : 'Article has no yEnc data');
      return;
    }
    const h = this.header;
    const yendSize = intField(this.yend, 'size', false);
    if (this.overflow || this.written !== h.partSize || (yendSize !== undefined && yendSize !== h.partSize)) {
      this.error = new CorruptArticleError(
        `yEnc size mismatch: decoded ${this.overflow ? 'more than ' : ''}${this.written}, header says ${h.partSize}` +
          (yendSize !== undefined ? `, =yend says ${yendSize}` : ''),
      );
      return;
    }
    const declared =
      crcField(this.yend, 'pcrc32') ??
      (h.totalParts === undefined || h.totalParts <= 1 ? crcField(this.yend, 'crc32') : undefined);
    h.crc = declared;
    if (declared !== undefined) {
      const actual = this.backend.crc32(this.out!.subarray(0, this.written)).toString(16).padStart(8, '0');
      if (actual !== declared)
        this.error = new CorruptArticleError(`yEnc CRC mismatch: got ${actual}, expected ${declared}`);
    }
  }
}
