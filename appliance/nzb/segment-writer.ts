import { NzbParseError } from './errors.js';
import { NzbSegments, type NzbSegment, type SegmentStore } from './segments.js';

const MAX_REPORTED_MISSING = 100;
/** A real `<segment>` line is ~100 bytes of XML: sizing for one per 64 bytes leaves room, and the arrays double past it. */
const XML_BYTES_PER_SEGMENT = 64;
const MAX_U32 = 0xffff_ffff;

/** What closing a file found while putting its segments in order. */
export interface ClosedFile {
  length: number;
  missingCount: number;
  missingNumbers: number[];
  duplicatesDropped: number;
}

/**
 * Appends segments straight into the flat arrays of a `SegmentStore` as the parser reads them, one file after the
 * other, so no object per segment is ever made. Large arrays are zero-filled allocations the kernel maps lazily:
 * capacity that is never written costs address space, not memory.
 */
export class SegmentWriter {
  // 32-bit until a value does not fit (a hostile number= or bytes= past 2^32), then 64-bit floats from then on
  private numbers: Uint32Array | Float64Array;
  private bytes: Uint32Array | Float64Array;
  private idEnds: Uint32Array;
  private ids: Buffer;
  private domainOf: Uint16Array;
  private readonly domains: string[] = [''];
  private readonly domainIndex = new Map<string, number>();
  private idBytes = 0;
  count = 0;

  /** `expectedBytes`: the size of the XML when known (a whole NZB in memory), to size the arrays once. */
  constructor(expectedBytes = 0) {
    const segments = Math.max(1024, Math.ceil(expectedBytes / XML_BYTES_PER_SEGMENT));
    this.numbers = new Uint32Array(segments);
    this.bytes = new Uint32Array(segments);
    this.idEnds = new Uint32Array(segments);
    this.domainOf = new Uint16Array(segments);
    this.ids = Buffer.from(new ArrayBuffer(Math.max(64 * 1024, expectedBytes)));
  }

  add(number: number, bytes: number, messageId: string): void {
    if (this.count === this.numbers.length) this.growSegments();
    const at = messageId.lastIndexOf('@');
    const domain = at < 0 ? 0 : this.domainNumber(messageId.slice(at + 1));
    const local = domain === 0 ? messageId : messageId.slice(0, at);
    const room = this.idBytes + local.length * 3; // UTF-8 takes at most 3 bytes per UTF-16 unit
    if (room > this.ids.length) this.growIds(room);
    this.idBytes += this.ids.write(local, this.idBytes, 'utf8');
    this.idEnds[this.count] = this.idBytes;
    this.domainOf[this.count] = domain;
    if (number > MAX_U32 && this.numbers instanceof Uint32Array)
      this.numbers = grown(this.numbers, new Float64Array(this.numbers.length));
    if (bytes > MAX_U32 && this.bytes instanceof Uint32Array)
      this.bytes = grown(this.bytes, new Float64Array(this.bytes.length));
    this.numbers[this.count] = number;
    this.bytes[this.count++] = bytes;
  }

  /**
   * Puts the segments from `first` on (one file's) in number order, keeping the first of equal numbers (a stable
   * sort), drops the repeats and counts the numbers missing between 1 and the highest.
   */
  closeFile(first: number): ClosedFile {
    const nums = this.numbers;
    const end = this.count;
    let ordered = true;
    for (let i = first + 1; i < end && ordered; i++) ordered = nums[i]! > nums[i - 1]!;
    const order = ordered ? null : rangeOf(first, end).sort((a, b) => nums[a]! - nums[b]! || a - b);
    const kept: number[] = [];
    const closed: ClosedFile = { length: 0, missingCount: 0, missingNumbers: [], duplicatesDropped: 0 };
    let expected = 1;
    let previous = NaN;
    for (let k = first; k < end; k++) {
      const i = order ? order[k - first]! : k;
      const number = nums[i]!;
      if (number === previous) {
        closed.duplicatesDropped++;
        continue;
      }
      for (let n = expected; n < number; n++) {
        closed.missingCount++;
        if (closed.missingNumbers.length < MAX_REPORTED_MISSING) closed.missingNumbers.push(n);
        else {
          closed.missingCount += number - n - 1;
          break;
        }
      }
      expected = number + 1;
      previous = number;
      if (order) kept.push(i);
    }
    if (order) this.rewrite(first, kept);
    closed.length = this.count - first;
    return closed;
  }

  /** The arrays as filled so far (views over the same memory: move their buffers, do not copy them). */
  store(): SegmentStore {
    return {
      numbers: this.numbers.subarray(0, this.count),
      bytes: this.bytes.subarray(0, this.count),
      idEnds: this.idEnds.subarray(0, this.count),
      ids: new Uint8Array(this.ids.buffer, 0, this.idBytes),
      domainOf: this.domainOf.subarray(0, this.count),
      domains: this.domains,
    };
  }

  /** The domain's index, a new one if there is room (65,535 distinct); 0 keeps the whole id in `ids`. */
  private domainNumber(domain: string): number {
    let n = this.domainIndex.get(domain);
    if (n === undefined && this.domains.length <= 0xffff) {
      n = this.domains.push(domain) - 1;
      this.domainIndex.set(domain, n);
    }
    return n ?? 0;
  }

  /** Writes the segments `picked` (indexes from `first` on) back from `first`, in that order. */
  private rewrite(first: number, picked: number[]): void {
    const idStart = first === 0 ? 0 : this.idEnds[first - 1]!;
    const numbers = this.numbers.slice(first, this.count);
    const bytes = this.bytes.slice(first, this.count);
    const ends = this.idEnds.slice(first, this.count);
    const domains = this.domainOf.slice(first, this.count);
    const ids = Buffer.from(this.ids.subarray(idStart, this.idBytes));
    let at = idStart;
    picked.forEach((i, k) => {
      const j = i - first;
      const from = (j === 0 ? idStart : ends[j - 1]!) - idStart;
      at += ids.copy(this.ids, at, from, ends[j]! - idStart);
      this.idEnds[first + k] = at;
      this.domainOf[first + k] = domains[j]!;
      this.numbers[first + k] = numbers[j]!;
      this.bytes[first + k] = bytes[j]!;
    });
    this.count = first + picked.length;
    this.idBytes = at;
  }

  private growSegments(): void {
    const size = this.numbers.length * 2;
    this.numbers = grown(this.numbers, new (this.numbers.constructor as typeof Float64Array)(size));
    this.bytes = grown(this.bytes, new (this.bytes.constructor as typeof Float64Array)(size));
    this.idEnds = grown(this.idEnds, new Uint32Array(size));
    this.domainOf = grown(this.domainOf, new Uint16Array(size));
  }

  private growIds(room: number): void {
    const size = Math.max(room, this.ids.length * 2);
    if (size > 0xffff_ffff) throw new NzbParseError('limit', 'the message-ids add up to more than 4 GiB');
    const ids = Buffer.from(new ArrayBuffer(size));
    this.ids.copy(ids, 0, 0, this.idBytes);
    this.ids = ids;
  }
}

function grown<T extends Float64Array | Uint32Array | Uint16Array>(from: T | Float64Array | Uint32Array, to: T): T {
  to.set(from);
  return to;
}

function rangeOf(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i);
}

/** An `NzbSegments` from plain segments, kept in the order given (tests, NZB export). */
export function packSegments(segments: readonly NzbSegment[]): NzbSegments {
  const writer = new SegmentWriter();
  for (const s of segments) writer.add(s.number, s.bytes, s.messageId);
  return new NzbSegments(writer.store(), 0, segments.length);
}
