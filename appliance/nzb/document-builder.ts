import { NzbParseError } from './errors.js';
import type { NzbLimits } from './limits.js';
import { SegmentWriter } from './segment-writer.js';
import type { FileHead, PackedNzb } from './pack.js';
import type { NzbMeta } from './types.js';

const WHOLE_NUMBER = /^\s*\d{1,15}\s*$/;
/** Message-ids go on the NNTP wire verbatim: whitespace or control characters would inject commands. */
// eslint-disable-next-line no-control-regex
const UNSAFE_MESSAGE_ID = /[\s\x00-\x1f\x7f<>]/;

export interface Position {
  line: number;
  column: number;
}

/**
 * Collects the parts of an NZB as the SAX events arrive and checks each value once, where it is read.
 * Kept apart from the SAX wiring so the rules about what a valid segment is read in one place.
 */
export class NzbDocumentBuilder {
  /** Null prototype while collecting: meta types come from the document. */
  private readonly meta: NzbMeta = Object.create(null) as NzbMeta;
  private readonly files: FileHead[] = [];
  private readonly warnings: string[] = [];
  private current: FileHead | null = null;
  private readonly segments: SegmentWriter;
  /** Every `<segment>` read, repeats included (the limit is on what the document lists). */
  private totalSegments = 0;

  /** `expectedBytes`: the XML's size when known, so the segment arrays are sized once. */
  constructor(
    private readonly limits: NzbLimits,
    expectedBytes = 0,
  ) {
    this.segments = new SegmentWriter(expectedBytes);
  }

  addMeta(type: string, value: string): void {
    const key = type.trim().toLowerCase();
    if (key === '') return;
    (this.meta[key] ??= []).push(value.trim());
  }

  startFile(attrs: Record<string, string>, at: Position): void {
    if (this.files.length >= this.limits.maxFiles) {
      throw new NzbParseError('limit', `more than ${this.limits.maxFiles} files`, at.line, at.column);
    }
    const date = Number(attrs.date ?? '');
    this.current = {
      poster: attrs.poster ?? '',
      date: Number.isSafeInteger(date) && date > 0 ? date : 0,
      subject: attrs.subject ?? '',
      groups: [],
      first: this.segments.count,
      length: 0,
      missingCount: 0,
      missingNumbers: [],
      duplicatesDropped: 0,
    };
  }

  addGroup(name: string): void {
    const group = name.trim();
    if (this.current && group !== '') this.current.groups.push(group);
  }

  addSegment(attrs: Record<string, string>, text: string, at: Position): void {
    const file = this.current;
    if (!file) return; // a <segment> outside any <file> carries nothing we could use
    const inFile = this.segments.count - file.first;
    const where = `segment ${inFile + 1} of file ${this.files.length + 1}`;
    const fail = (message: string) => new NzbParseError('invalid', `${where} ${message}`, at.line, at.column);
    const rawNumber = attrs.number;
    if (rawNumber === undefined || !WHOLE_NUMBER.test(rawNumber) || Number(rawNumber) < 1) {
      throw fail(`has number="${rawNumber ?? ''}": expected a whole number from 1`);
    }
    const rawBytes = attrs.bytes;
    if (rawBytes !== undefined && !WHOLE_NUMBER.test(rawBytes)) {
      throw fail(`has bytes="${rawBytes}": expected a whole number of bytes`);
    }
    const messageId = stripBrackets(text);
    if (messageId === '') throw fail('has no message-id');
    if (UNSAFE_MESSAGE_ID.test(messageId)) throw fail('has a message-id with spaces, brackets or control characters');
    if (inFile >= this.limits.maxSegmentsPerFile) {
      throw new NzbParseError(
        'limit',
        `a file has more than ${this.limits.maxSegmentsPerFile} segments`,
        at.line,
        at.column,
      );
    }
    if (++this.totalSegments > this.limits.maxTotalSegments) {
      throw new NzbParseError(
        'limit',
        `more than ${this.limits.maxTotalSegments} segments in total`,
        at.line,
        at.column,
      );
    }
    this.segments.add(Number(rawNumber), rawBytes === undefined ? 0 : Number(rawBytes), messageId);
  }

  endFile(): void {
    const file = this.current;
    this.current = null;
    if (!file) return;
    const label = `file ${this.files.length + 1} (${file.subject.slice(0, 80) || 'no subject'})`;
    if (this.segments.count === file.first) {
      this.warnings.push(`${label} lists no segments and was left out`);
      return;
    }
    Object.assign(file, this.segments.closeFile(file.first));
    if (file.duplicatesDropped > 0) {
      this.warnings.push(`${label}: ${file.duplicatesDropped} duplicate segment numbers dropped (first kept)`);
    }
    this.files.push(file);
  }

  finish(): PackedNzb {
    if (this.files.length === 0) throw new NzbParseError('invalid', 'the NZB lists no files with segments');
    // a plain object again, built with own data properties so a meta type "__proto__" stays just a key
    const meta = Object.fromEntries(Object.entries(this.meta)) as NzbMeta;
    return { meta, files: this.files, warnings: this.warnings, store: this.segments.store() };
  }
}

function stripBrackets(text: string): string {
  let id = text.trim();
  if (id.startsWith('<') && id.endsWith('>')) id = id.slice(1, -1).trim();
  return id;
}
