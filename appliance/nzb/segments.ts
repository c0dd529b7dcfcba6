/** One article of a posted file, as the NZB lists it. */
export interface NzbSegment {
  /** 1-based part number from the NZB (`number=`). */
  number: number;
  /** Encoded article size the NZB claims (`bytes=`); 0 when absent. Includes yEnc overhead, so never a decoded size. */
  bytes: number;
  /** Message-id without angle brackets. */
  messageId: string;
}

/**
 * Every segment of a parsed NZB in four flat arrays instead of one object and one string each: a 100 MB NZB lists
 * about a million segments, and as objects they cost ~150 bytes apiece on the heap (docs/nzb.md "Packed
 * segments"). Plain typed arrays, so a worker hands them over by moving their buffers, not by cloning.
 */
export interface SegmentStore {
  /** `number=` of each segment: 32-bit, or 64-bit floats when a (hostile) value does not fit. */
  numbers: Uint32Array | Float64Array;
  /** `bytes=` of each segment, 0 when absent; 32-bit unless a value does not fit. */
  bytes: Uint32Array | Float64Array;
  /** Where each message-id ends in `ids`; one starts where the previous one ends (the first at 0). */
  idEnds: Uint32Array;
  /** The message-ids up to their last '@', UTF-8, back to back (no separator: the ends say where each stops). */
  ids: Uint8Array;
  /** Each id's part after its last '@', as an index into `domains`; 0 = none (the whole id is in `ids`). */
  domainOf: Uint16Array;
  /** `''` first, then each distinct domain once: a post's ids share one, which would cost ~15-20 bytes each. */
  domains: string[];
}

/**
 * One `<file>`'s segments: a window `[first, first + length)` on a store shared by the whole document. Reads
 * build a value on demand (`messageId(i)` decodes one string), so holding a document costs its arrays only.
 */
export class NzbSegments implements Iterable<NzbSegment> {
  private readonly text: Buffer;

  constructor(
    private readonly store: SegmentStore,
    private readonly first: number,
    readonly length: number,
  ) {
    this.text = Buffer.from(store.ids.buffer, store.ids.byteOffset, store.ids.byteLength);
  }

  number(index: number): number {
    return this.store.numbers[this.at(index)]!;
  }

  bytes(index: number): number {
    return this.store.bytes[this.at(index)]!;
  }

  messageId(index: number): string {
    const k = this.at(index);
    const local = this.text.toString('utf8', k === 0 ? 0 : this.store.idEnds[k - 1]!, this.store.idEnds[k]!);
    const domain = this.store.domainOf[k]!;
    return domain === 0 ? local : `${local}@${this.store.domains[domain]}`;
  }

  segment(index: number): NzbSegment {
    return { number: this.number(index), bytes: this.bytes(index), messageId: this.messageId(index) };
  }

  /** Sum of `bytes=` (the NZB's encoded size of the file). */
  totalBytes(): number {
    let sum = 0;
    for (let i = 0; i < this.length; i++) sum += this.store.bytes[this.first + i]!;
    return sum;
  }

  toArray(): NzbSegment[] {
    return Array.from({ length: this.length }, (_, i) => this.segment(i));
  }

  *[Symbol.iterator](): Iterator<NzbSegment> {
    for (let i = 0; i < this.length; i++) yield this.segment(i);
  }

  private at(index: number): number {
    if (!(index >= 0 && index < this.length && Number.isInteger(index))) {
      throw new RangeError(`segment ${index} of a file with ${this.length}`);
    }
    return this.first + index;
  }
}
