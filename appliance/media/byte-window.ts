/** Random access to a file's bytes (the importer's reads of a layout, a Buffer in tests). */
export interface MediaBytes {
  size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** The most bytes one probe reads in all (the head the importer already has counts only when it is read again). */
export const PROBE_BUDGET_BYTES = 256 * 1024;
/** The least one fetch reads: a container's headers lie close together, so one read serves several of them. */
const CHUNK_BYTES = 16 * 1024;

/** Thrown inside a probe when the file ends early or the budget is spent; the probe answers "no duration". */
export class ProbeGiveUp extends Error {}

/**
 * The reads of one probe, served from the chunks already read where they can be and bounded in total
 * (PROBE_BUDGET_BYTES), so a hostile file (a box claiming to start a terabyte in, a chain of tiny boxes) costs a
 * few reads at most.
 */
export class ByteWindow {
  private readonly chunks: { offset: number; bytes: Uint8Array }[] = [];
  private spent = 0;

  constructor(
    private readonly src: MediaBytes,
    head?: Uint8Array,
  ) {
    if (head && head.length > 0)
      this.chunks.push({ offset: 0, bytes: head.subarray(0, Math.min(head.length, src.size)) });
  }

  get size(): number {
    return this.src.size;
  }

  /** Exactly `length` bytes at `offset`, or ProbeGiveUp (past the end, or over the budget). */
  async bytes(offset: number, length: number): Promise<Uint8Array> {
    if (!Number.isSafeInteger(offset) || offset < 0 || length < 0 || offset + length > this.src.size) {
      throw new ProbeGiveUp('past the end');
    }
    for (const c of this.chunks) {
      if (offset >= c.offset && offset + length <= c.offset + c.bytes.length) {
        return c.bytes.subarray(offset - c.offset, offset - c.offset + length);
      }
    }
    const want = Math.min(Math.max(length, CHUNK_BYTES), this.src.size - offset);
    if (this.spent + want > PROBE_BUDGET_BYTES) throw new ProbeGiveUp('over the read budget');
    this.spent += want;
    const got = await this.src.read(offset, want);
    if (got.length < length) throw new ProbeGiveUp('short read');
    this.chunks.push({ offset, bytes: got });
    return got.subarray(0, length);
  }
}
