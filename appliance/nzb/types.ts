/** The NZB domain's data shapes. Plain data, so they cross worker boundaries and LMDB without ceremony. */

import type { NzbSegments } from './segments.js';

export type { NzbSegment } from './segments.js';

/** One `<file>` of an NZB, segments sorted by number with duplicates dropped. */
export interface NzbFile {
  poster: string;
  /** Unix seconds from `date=`; 0 when absent or unreadable. */
  date: number;
  subject: string;
  groups: string[];
  /** Packed (appliance/nzb/segments.ts): read with `number(i)`, `bytes(i)`, `messageId(i)` or iterate. */
  segments: NzbSegments;
  /** How many segment numbers are missing between 1 and the highest number listed (a damaged or incomplete post). */
  missingCount: number;
  /** The first missing numbers (at most 100), for messages a person can act on. */
  missingNumbers: number[];
  /** How many `<segment>` entries repeated a number already seen (first one kept). */
  duplicatesDropped: number;
}

/** `<head><meta type="...">` entries; one type may repeat (several passwords), so values are lists. */
export type NzbMeta = Record<string, string[]>;

export interface NzbDocument {
  meta: NzbMeta;
  files: NzbFile[];
  /** Things dropped or repaired while reading (empty files, duplicate segments), worded for a person. */
  warnings: string[];
}

/**
 * What the importer learned from one article's yEnc headers (`=ybegin`, `=ypart`). The NNTP domain produces these;
 * this domain only consumes them, so the shape is declared here.
 */
export interface YencFacts {
  /** `=ybegin name=`: the poster's file name (may be obfuscated). */
  name: string;
  /** `=ybegin size=`: decoded size of the whole file. */
  size: number;
  /** `=ybegin part=`; absent in single-part posts. */
  part?: number;
  /** `=ybegin total=`: number of parts, when the poster wrote it. */
  total?: number;
  /** `=ypart begin=`: 1-based offset of this article's first byte in the file; absent in single-part posts. */
  begin?: number;
  /** `=ypart end=`: 1-based offset of this article's last byte (inclusive). */
  end?: number;
}
