/**
 * A small typed WebDAV client for the Files screen (docs/console-contract.md §7): PROPFIND depth 1 to list, DELETE, and URLs for GET.
 * Authentication is the console's own session cookie (same origin), every request times out after 10 s (docs/console-contract.md §9),
 * and failures become a `WebdavError` with the texts of docs/console-contract.md §8.
 */
import { TIMEOUT_STATUS, WebdavError, messageForStatus, type WebdavOp } from './webdavErrors';

export { WebdavError } from './webdavErrors';

export const WEBDAV_BASE = '/webdav';
export const WEBDAV_TIMEOUT_MS = 10_000;

/** docs/console-contract.md §3 File entry. */
export interface FileEntry {
  /** Full path inside the WebDAV tree, e.g. /complete/movies/Film.mkv. */
  filename: string;
  basename: string;
  /** ISO time. */
  lastmod: string;
  size: number;
  type: 'file' | 'directory';
  etag: string | null;
  mime: string | null;
}

/** /complete/a b → /webdav/complete/a%20b: each segment encoded, slashes kept. */
export function webdavUrl(path: string): string {
  const clean = normalizePath(path);
  return WEBDAV_BASE + (clean === '/' ? '/' : clean.split('/').map(encodeURIComponent).join('/'));
}

export function normalizePath(path: string): string {
  const parts = path.split('/').filter(Boolean);
  return `/${parts.join('/')}`;
}

/** A fetch with the 10 s timeout, the caller's abort signal, and the §8 errors for network failures and timeouts. */
async function davFetch(op: WebdavOp, url: string, init: RequestInit, signal?: AbortSignal): Promise<Response> {
  const timeout = AbortSignal.timeout(WEBDAV_TIMEOUT_MS);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let res: Response;
  try {
    res = await fetch(url, { ...init, credentials: 'same-origin', signal: combined });
  } catch (cause) {
    if (timeout.aborted) throw new WebdavError(TIMEOUT_STATUS, op, messageForStatus(TIMEOUT_STATUS, op));
    if (signal?.aborted) throw cause;
    throw new WebdavError(0, op, messageForStatus(0, op));
  }
  if (!res.ok && res.status !== 207)
    throw new WebdavError(res.status, op, messageForStatus(res.status, op, res.statusText));
  return res;
}

const PROPFIND_BODY =
  '<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:"><D:prop>' +
  '<D:displayname/><D:getcontentlength/><D:getlastmodified/><D:resourcetype/><D:getetag/><D:getcontenttype/>' +
  '</D:prop></D:propfind>';

export interface ListOptions {
  /**
   * Sends `X-Show-Corrupted: true` so corrupted files are listed too, `false` to hide them (docs/console-contract.md
   * §7; without the header WebDAV lists them, so a file under repair stays in players' libraries).
   */
  showCorrupted?: boolean;
  signal?: AbortSignal;
}

/** The entries of one directory, without the directory itself. */
export async function listDirectory(path: string, options: ListOptions = {}): Promise<FileEntry[]> {
  const headers: Record<string, string> = {
    Depth: '1',
    Accept: 'application/xml, text/xml',
    'Content-Type': 'application/xml; charset=utf-8',
  };
  headers['X-Show-Corrupted'] = options.showCorrupted ? 'true' : 'false';
  const res = await davFetch(
    'list',
    webdavUrl(path),
    { method: 'PROPFIND', headers, body: PROPFIND_BODY },
    options.signal,
  );
  const self = normalizePath(path);
  return parseMultistatus(await res.text()).filter((e) => e.filename !== self);
}

/** Lists the root: the connection test of docs/console-contract.md §7. */
export async function testConnection(signal?: AbortSignal): Promise<void> {
  await listDirectory('/', { signal });
}

export async function deleteItem(path: string): Promise<void> {
  await davFetch('delete', webdavUrl(path), { method: 'DELETE' });
}

/** The first `maxBytes` of a file as text (previews of text files never pull a whole large file). */
export async function readText(
  path: string,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<{ text: string; truncated: boolean }> {
  const res = await davFetch('read', webdavUrl(path), { headers: { Range: `bytes=0-${maxBytes - 1}` } }, signal);
  const text = await res.text();
  const range = res.headers.get('Content-Range');
  const total = range ? Number(range.split('/')[1]) : NaN;
  return { text, truncated: res.status === 206 && Number.isFinite(total) && total > maxBytes };
}

export async function readBlob(path: string, signal?: AbortSignal): Promise<Blob> {
  const res = await davFetch('read', webdavUrl(path), {}, signal);
  return res.blob();
}

const DAV_NS = 'DAV:';

function prop(el: Element, name: string): string | null {
  const found = el.getElementsByTagNameNS(DAV_NS, name)[0];
  return found ? (found.textContent ?? '') : null;
}

/** Parses a 207 multistatus body with the browser's DOMParser into docs/console-contract.md §3 File entries. */
export function parseMultistatus(xml: string): FileEntry[] {
  const doc = new DOMParser().parseFromString(xml, 'application/xml');
  if (doc.getElementsByTagName('parsererror').length > 0) {
    throw new WebdavError(500, 'list', 'Server Error: the directory listing could not be read');
  }
  const entries: FileEntry[] = [];
  for (const response of Array.from(doc.getElementsByTagNameNS(DAV_NS, 'response'))) {
    const href = prop(response, 'href');
    if (href === null) continue;
    const filename = hrefToPath(href);
    const isDir = response.getElementsByTagNameNS(DAV_NS, 'collection').length > 0;
    const modified = prop(response, 'getlastmodified');
    const time = modified ? new Date(modified) : null;
    entries.push({
      filename,
      basename: prop(response, 'displayname') || filename.split('/').pop() || '/',
      lastmod: time && !Number.isNaN(time.getTime()) ? time.toISOString() : '',
      size: isDir ? 0 : Number(prop(response, 'getcontentlength') ?? 0) || 0,
      type: isDir ? 'directory' : 'file',
      etag: prop(response, 'getetag'),
      mime: isDir ? null : prop(response, 'getcontenttype'),
    });
  }
  return entries;
}

/** `/webdav/complete/a%20b/` or an absolute URL → `/complete/a b`. */
export function hrefToPath(href: string): string {
  let path = href;
  if (/^https?:\/\//i.test(path)) path = new URL(path).pathname;
  if (path.startsWith(WEBDAV_BASE)) path = path.slice(WEBDAV_BASE.length);
  const decoded = path
    .split('/')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    })
    .join('/');
  return normalizePath(decoded);
}
