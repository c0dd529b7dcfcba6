/**
 * A read landing this close to where the last one ended continues it: the kernel sends a FUSE file's reads several
 * at a time and out of order, within its read-ahead (the mount's read_ahead_kb, 1 MiB).
 */
export const JUMP_SLACK = 1024 * 1024;

/**
 * A sequential run this long from one position is playback: a probe reads a few hundred KiB of a head, an index,
 * the first packets (ffprobe reads 32 KiB at each), a player's start-up reads megabytes in a row. The reader
 * classes use it (appliance/streams/reader-class.ts), and a FUSE handle reads ahead its whole window only once
 * it has read one such run (read-stream.ts).
 */
export const PLAY_RUN_BYTES = 1024 * 1024;

/** What ReadPattern tells (the reader classes' `ReadPatternFacts`, appliance/streams/reader-class.ts). */
export interface ReadPatternView {
  runBytes: number;
  longestRun: number;
  jumps: number;
}

/**
 * How one open reads (docs/streaming.md, "Reader classes"): the sequential run it is in, the longest one, and how
 * often it jumped. Fed by the read handle at each read's start (`asked`) and with what each read served (`served`);
 * a few numbers, no allocation per read.
 */
export class ReadPattern implements ReadPatternView {
  runBytes = 0;
  longestRun = 0;
  jumps = 0;
  private position: number;
  private started = false;

  constructor(openOffset: number) {
    this.position = openOffset;
  }

  /** A read begins at `offset`: a jump when it lands away from where the last one ended. */
  asked(offset: number): void {
    if (this.started && Math.abs(offset - this.position) > JUMP_SLACK) {
      this.jumps++;
      this.runBytes = 0;
      this.position = offset;
    } else if (!this.started) this.position = offset;
    this.started = true;
  }

  /** A read served bytes [offset, offset + n). */
  served(offset: number, n: number): void {
    this.runBytes += n;
    if (this.runBytes > this.longestRun) this.longestRun = this.runBytes;
    this.position = Math.max(this.position, offset + n);
  }

  view(): ReadPatternView {
    return { runBytes: this.runBytes, longestRun: this.longestRun, jumps: this.jumps };
  }
}
