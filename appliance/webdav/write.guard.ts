import { decodeUrlPath } from '../vfs/path.js';
import { evaluateIf, parseIfHeader, submittedTokens, type IfList } from './if-header.js';
import type { DavRequest } from './webdav.types.js';

/** A WebDAV status outside the app's error registry (423 Locked, 412 from If:, 415, 507...). */
export class DavError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const parsed = new WeakMap<DavRequest, IfList[] | null>();

/** The request's `If:` lists (cached); a malformed header is a 400, never a crash. */
export function ifLists(r: DavRequest): IfList[] | null {
  if (parsed.has(r)) return parsed.get(r) ?? null;
  const header = r.ctx.req.header('if');
  let lists: IfList[] | null = null;
  if (header !== undefined) {
    lists = parseIfHeader(header, (url) => resolveHref(url, r.prefix));
    if (!lists) throw new DavError(400, 'Malformed If header');
  }
  parsed.set(r, lists);
  return lists;
}

/** RFC 4918 §10.4: when the If header is false for its resources, nothing happens (412). */
export function checkIfHeader(r: DavRequest): void {
  const lists = ifLists(r);
  if (!lists) return;
  const ok = evaluateIf(lists, r.path, (path) => {
    const node = r.deps.vfs.stat(path);
    return { etag: node?.etag ?? null, tokens: new Set(r.deps.locks.covering(path).map((l) => l.token)) };
  });
  if (!ok) throw new DavError(412, 'If header precondition failed');
}

/** A write to a locked resource needs the lock's token in the If header (423 Locked otherwise). */
export function requireWritable(r: DavRequest, path: string, deep = false): void {
  const tokens = submittedTokens(ifLists(r));
  if (!r.deps.locks.canWrite(path, tokens, deep)) throw new DavError(423, `Resource is locked: ${path}`);
}

/** An absolute or server-relative URL (Destination, tagged If lists) to a virtual path; null when outside /webdav. */
export function resolveHref(href: string, prefix: string): string | null {
  let pathname: string;
  try {
    pathname = new URL(href, 'http://spool.invalid').pathname;
  } catch {
    return null;
  }
  if (pathname !== prefix && !pathname.startsWith(prefix + '/')) return `\u0000outside:${pathname}`;
  return decodeUrlPath(pathname.slice(prefix.length));
}
