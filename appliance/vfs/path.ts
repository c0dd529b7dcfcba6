import { AppError } from '../errors/app-error.js';

/**
 * Turns a client-supplied virtual path into the one canonical form the tree stores: '/', or '/a/b' with no
 * trailing slash. Anything that could climb out of the tree or alias another entry is refused outright rather
 * than "cleaned": '.' and '..' segments, NUL and other control characters, backslashes, and (for encoded input)
 * an encoded '/' inside a segment. Refusing is safer than resolving because every layer then agrees on one name.
 */
export function normalizeVfsPath(input: string): string {
  if (typeof input !== 'string') throw invalid('path must be a string');
  if (input.length > 4096) throw invalid('path is too long');
  const segments = input.split('/').filter((s) => s.length > 0);
  for (const s of segments) checkSegment(s);
  return '/' + segments.join('/');
}

/** The same for a percent-encoded URL path (WebDAV): each segment is decoded on its own, then checked. */
export function decodeUrlPath(rawPath: string): string {
  const segments = rawPath.split('/').filter((s) => s.length > 0);
  const decoded: string[] = [];
  for (const s of segments) {
    let d: string;
    try {
      d = decodeURIComponent(s);
    } catch {
      throw invalid('malformed percent-encoding in path');
    }
    if (d.includes('/')) throw invalid('encoded "/" inside a path segment');
    checkSegment(d);
    decoded.push(d);
  }
  return '/' + decoded.join('/');
}

/** Checks one file or directory name (also used for names given by the importer). */
export function checkSegment(s: string): void {
  if (s === '.' || s === '..') throw invalid('path traversal is not allowed');
  if (s.includes('\\')) throw invalid('backslashes are not allowed in paths');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(s)) throw invalid('control characters are not allowed in paths');
  if (Buffer.byteLength(s) > 255) throw invalid('a path segment is longer than 255 bytes');
}

export function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function joinPath(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}

/** True when `path` is `ancestor` or lies beneath it. */
export function isWithin(path: string, ancestor: string): boolean {
  return ancestor === '/' || path === ancestor || path.startsWith(ancestor + '/');
}

function invalid(message: string): AppError {
  return new AppError('INVALID_PATH', `Invalid path: ${message}`);
}
