import { SaxesParser } from 'saxes';
import { TextDecoder } from 'node:util';
import type { SaxesTagPlain } from 'saxes';
import { NzbDocumentBuilder } from './document-builder.js';
import { NzbParseError } from './errors.js';
import { resolveLimits } from './limits.js';
import type { NzbLimits } from './limits.js';
import { unpackNzb, type PackedNzb } from './pack.js';
import type { NzbDocument } from './types.js';

/** Where a text node's content goes, decided by the element it sits in. */
type TextTarget = 'none' | 'meta' | 'group' | 'segment';

/**
 * A streaming NZB reader. Feed it chunks with `write`, then call `end` for the document.
 *
 * Hostile input is refused rather than survived: a DOCTYPE with an internal subset is rejected (so no entity beyond
 * the five XML built-ins and numeric references can exist; saxes never expands or fetches anything else), and size, depth, element, file,
 * segment, attribute and text limits stop the parse at the first excess with the line and column.
 */
export class NzbStreamParser {
  private readonly limits: NzbLimits;
  private readonly sax = new SaxesParser({ xmlns: false, position: true });
  private readonly doc: NzbDocumentBuilder;
  private decoder: TextDecoder | null = null;
  private bytesSeen = 0;
  private depth = 0;
  private elements = 0;
  private sawRoot = false;
  private target: TextTarget = 'none';
  private text = '';
  private pendingAttrs: Record<string, string> = {};
  private failure: NzbParseError | null = null;

  /** `expectedBytes`: the document's size when known (it sizes the segment arrays once). */
  constructor(limits?: Partial<NzbLimits>, expectedBytes = 0) {
    this.limits = resolveLimits(limits);
    this.doc = new NzbDocumentBuilder(this.limits, Math.min(expectedBytes, this.limits.maxBytes));
    this.sax.on('doctype', (doctype) => this.checkDoctype(doctype));
    this.sax.on('opentag', (tag) => this.openTag(tag as SaxesTagPlain));
    this.sax.on('closetag', (tag) => this.closeTag(tag.name));
    this.sax.on('text', (text) => this.addText(text));
    this.sax.on('cdata', (text) => this.addText(text));
    this.sax.on('error', (err) => this.fail('malformed', stripSaxPosition(err.message)));
  }

  write(chunk: Uint8Array | string): this {
    if (this.failure) throw this.failure;
    this.bytesSeen += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
    if (this.bytesSeen > this.limits.maxBytes) {
      this.fail('limit', `the document is larger than ${this.limits.maxBytes} bytes`, false);
    }
    const text = typeof chunk === 'string' ? chunk : this.decode(chunk, true);
    this.guard(() => this.sax.write(text));
    return this;
  }

  end(): NzbDocument {
    return unpackNzb(this.endPacked());
  }

  /** Like `end`, as the packed form a worker posts back (its buffers moved, see pack.ts). */
  endPacked(): PackedNzb {
    if (this.failure) throw this.failure;
    if (this.decoder) this.guard(() => this.sax.write(this.decoder!.decode()));
    this.guard(() => this.sax.close());
    if (!this.sawRoot) throw new NzbParseError('invalid', 'the document has no <nzb> root element');
    return this.doc.finish();
  }

  /** Decodes bytes as UTF-8, or Latin-1 when the XML declaration says so (older indexers write ISO-8859-1). */
  private decode(chunk: Uint8Array, stream: boolean): string {
    this.decoder ??= new TextDecoder(declaredLatin1(chunk) ? 'latin1' : 'utf-8');
    return this.decoder.decode(chunk, { stream });
  }

  private guard(step: () => void): void {
    try {
      step();
    } catch (err) {
      if (this.failure) throw this.failure;
      if (err instanceof NzbParseError) {
        this.failure = err;
        throw err;
      }
      throw err;
    }
  }

  private fail(kind: NzbParseError['kind'], message: string, withPosition = true): never {
    this.failure = withPosition
      ? new NzbParseError(kind, message, this.sax.line, Math.max(1, this.sax.column))
      : new NzbParseError(kind, message);
    throw this.failure;
  }

  /**
   * Indexers write `<!DOCTYPE nzb PUBLIC "-//newzBin//DTD NZB 1.1//EN" "http://...">`, so that exact shape is
   * accepted: saxes never fetches an external DTD, and without an internal subset no entity can be declared.
   * Anything with an internal subset (`[...]`: entity bombs, external entities) is refused.
   */
  private checkDoctype(doctype: string): void {
    const unquoted = doctype.replace(/"[^"]*"|'[^']*'/g, '');
    if (unquoted.includes('[')) {
      this.fail('forbidden', 'DOCTYPE with an internal subset (entity or DTD declarations) is not allowed');
    }
    if (!/^\s*nzb(\s|$)/i.test(unquoted)) this.fail('forbidden', 'only a DOCTYPE for <nzb> is allowed');
  }

  private openTag(tag: SaxesTagPlain): void {
    const limits = this.limits;
    if (++this.depth > limits.maxDepth) this.fail('limit', `elements nested deeper than ${limits.maxDepth}`);
    if (++this.elements > limits.maxElements) this.fail('limit', `more than ${limits.maxElements} elements`);
    const attrs = tag.attributes;
    let count = 0;
    for (const key in attrs) {
      if (++count > limits.maxAttributes)
        this.fail('limit', `<${tag.name}> has more than ${limits.maxAttributes} attributes`);
      if (attrs[key]!.length > limits.maxAttributeLength) {
        this.fail('limit', `attribute ${key} of <${tag.name}> is longer than ${limits.maxAttributeLength} characters`);
      }
    }
    const name = localName(tag.name);
    if (this.depth === 1) {
      if (name !== 'nzb') this.fail('invalid', `the root element is <${tag.name}>, expected <nzb>`);
      this.sawRoot = true;
      return;
    }
    this.text = '';
    this.target = 'none';
    if (name === 'file') this.doc.startFile(attrs, this.sax);
    else if (name === 'meta') this.startText('meta', attrs);
    else if (name === 'group') this.startText('group', attrs);
    else if (name === 'segment') this.startText('segment', attrs);
  }

  private startText(target: TextTarget, attrs: Record<string, string>): void {
    this.target = target;
    this.pendingAttrs = attrs;
  }

  private addText(text: string): void {
    if (this.target === 'none') return;
    if (this.text.length + text.length > this.limits.maxTextLength) {
      this.fail('limit', `a text value is longer than ${this.limits.maxTextLength} characters`);
    }
    this.text += text;
  }

  private closeTag(rawName: string): void {
    this.depth--;
    const name = localName(rawName);
    if (name === 'segment' && this.target === 'segment') this.doc.addSegment(this.pendingAttrs, this.text, this.sax);
    else if (name === 'group' && this.target === 'group') this.doc.addGroup(this.text);
    else if (name === 'meta' && this.target === 'meta') this.doc.addMeta(this.pendingAttrs.type ?? '', this.text);
    else if (name === 'file') this.doc.endFile();
    this.target = 'none';
    this.text = '';
  }
}

/** Bytes handed to the XML parser at once: the text of one chunk is all that is decoded at a time. */
const PARSE_CHUNK_BYTES = 64 * 1024;

/**
 * Parses a whole NZB held in memory, fed to the parser 1 MiB at a time so a 100 MB NZB is never decoded into one
 * 100-200 MB string (docs/performance.md, import memory). Throws `NzbParseError`; never anything else for bad input.
 */
export function parseNzb(input: Uint8Array | string, limits?: Partial<NzbLimits>): NzbDocument {
  return unpackNzb(parseNzbPacked(input, limits));
}

/** `parseNzb`, giving the packed form (the worker moves its buffers to the main thread). */
export function parseNzbPacked(input: Uint8Array | string, limits?: Partial<NzbLimits>): PackedNzb {
  if (typeof input === 'string') return new NzbStreamParser(limits, input.length).write(input).endPacked();
  const parser = new NzbStreamParser(limits, input.byteLength);
  for (let at = 0; at < input.byteLength; at += PARSE_CHUNK_BYTES)
    parser.write(input.subarray(at, at + PARSE_CHUNK_BYTES));
  return parser.endPacked();
}

/** Parses an NZB as it streams in (an upload, a file read stream), stopping at the first problem. */
export async function parseNzbStream(
  input: AsyncIterable<Uint8Array | string>,
  limits?: Partial<NzbLimits>,
): Promise<NzbDocument> {
  const parser = new NzbStreamParser(limits);
  for await (const chunk of input) parser.write(chunk);
  return parser.end();
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

/** saxes prefixes "line:column: "; our error carries the position itself. */
function stripSaxPosition(message: string): string {
  return message.replace(/^\d+:\d+:\s*/, '');
}

function declaredLatin1(chunk: Uint8Array): boolean {
  const head = Buffer.from(chunk.buffer, chunk.byteOffset, Math.min(chunk.byteLength, 200)).toString('latin1');
  return /^\s*<\?xml[^>]*encoding\s*=\s*["'](iso-8859-1|latin-?1|windows-1252|cp1252)["']/i.test(head);
}
