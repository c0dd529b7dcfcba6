import { SaxesParser } from 'saxes';
import { AppError } from '../errors/app-error.js';

/** A parsed XML element with its namespace resolved (saxes in xmlns mode). */
export interface XmlElement {
  ns: string;
  local: string;
  attrs: { ns: string; prefix: string; local: string; value: string }[];
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

export const DAV = 'DAV:';
const MAX_BODY_ELEMENTS = 10_000;

/**
 * Parses a request body strictly: not well-formed, an unbound or undefined namespace prefix, a DTD, or too many
 * elements is a 400, never a crash and never an entity expansion.
 */
export function parseXml(body: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let count = 0;
  let error: Error | null = null;
  parser.on('error', (e) => {
    error ??= e;
  });
  parser.on('doctype', () => {
    error ??= new Error('DTDs are not accepted');
  });
  parser.on('opentag', (tag) => {
    if (++count > MAX_BODY_ELEMENTS) error ??= new Error('too many elements');
    const el: XmlElement = {
      ns: tag.uri ?? '',
      local: tag.local ?? tag.name,
      attrs: Object.values(tag.attributes)
        .filter((a) => a.prefix !== 'xmlns' && a.name !== 'xmlns')
        .map((a) => ({ ns: a.uri, prefix: a.prefix, local: a.local, value: a.value })),
      children: [],
    };
    stack.at(-1)?.children.push(el);
    if (!root) root = el;
    stack.push(el);
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.on('text', (t) => {
    stack.at(-1)?.children.push(t);
  });
  parser.on('cdata', (t) => {
    stack.at(-1)?.children.push(t);
  });
  try {
    parser.write(body).close();
  } catch (e) {
    error ??= e as Error;
  }
  if (error || !root) {
    throw new AppError(
      'MALFORMED_BODY',
      `Request body is not well-formed XML: ${(error as Error | null)?.message ?? 'empty'}`,
    );
  }
  return root;
}

export function elements(el: XmlElement): XmlElement[] {
  return el.children.filter((c): c is XmlElement => typeof c !== 'string');
}

export function child(el: XmlElement, ns: string, local: string): XmlElement | undefined {
  return elements(el).find((c) => c.ns === ns && c.local === local);
}

export function textOf(el: XmlElement): string {
  return el.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');
}

const NEEDS_ESCAPE = /[<>&"']/;
const SPECIALS = /[<>&"']/g;

/**
 * The five XML specials replaced by their entities. Most names need none and are returned as they are; the others
 * go through one global regular expression, which finds the specials in native code (a listing escapes 30,000
 * strings, and names with `&` are common; every etag has two `"`). A loop over the characters in JavaScript cost
 * a cold listing of 10,000 such names ~10 ms more: it runs in the interpreter until V8 has compiled it.
 */
export function escapeXml(s: string): string {
  return NEEDS_ESCAPE.test(s) ? s.replace(SPECIALS, entityOf) : s;
}

const APOSTROPHES = /'/g;

/**
 * `escapeXml(encodeURIComponent(name))` for less: percent-encoding leaves `'` as the only XML special (it encodes
 * `<`, `>`, `&` and `"`), so only apostrophes are looked for, with no callback per match.
 */
export function escapeEncodedXml(encoded: string): string {
  return encoded.indexOf("'") < 0 ? encoded : encoded.replace(APOSTROPHES, '&apos;');
}

const QUOTED_PLAIN = /^"[^<>&"']*"$/;

/** `escapeXml` of an entity tag: `"…"` with nothing else to escape (every etag Spool makes) in one test. */
export function escapeEtagXml(etag: string): string {
  return QUOTED_PLAIN.test(etag) ? `&quot;${etag.slice(1, -1)}&quot;` : escapeXml(etag);
}

function entityOf(special: string): string {
  switch (special) {
    case '<':
      return '&lt;';
    case '>':
      return '&gt;';
    case '&':
      return '&amp;';
    case '"':
      return '&quot;';
    default:
      return '&apos;';
  }
}

/**
 * Serialises an element so that it stands on its own anywhere: every element declares its namespace as the
 * default namespace, so a stored dead property keeps its meaning when echoed inside our multistatus.
 */
export function serialize(el: XmlElement): string {
  const parts = [`<${el.local} xmlns="${escapeXml(el.ns)}"`];
  let n = 0;
  for (const a of el.attrs) {
    if (!a.ns) parts.push(` ${a.local}="${escapeXml(a.value)}"`);
    else if (a.prefix === 'xml') parts.push(` xml:${a.local}="${escapeXml(a.value)}"`);
    else {
      const p = `a${n++}`;
      parts.push(` xmlns:${p}="${escapeXml(a.ns)}" ${p}:${a.local}="${escapeXml(a.value)}"`);
    }
  }
  if (el.children.length === 0) return parts.join('') + '/>';
  parts.push('>');
  for (const c of el.children) parts.push(typeof c === 'string' ? escapeXml(c) : serialize(c));
  parts.push(`</${el.local}>`);
  return parts.join('');
}

/** '{ns}local', the key of a property. */
export function propKey(ns: string, local: string): string {
  return `{${ns}}${local}`;
}

export function emptyElement(key: string): string {
  const m = /^\{(.*)\}(.+)$/.exec(key) as RegExpExecArray;
  return `<${m[2]} xmlns="${escapeXml(m[1] as string)}"/>`;
}
