import type { HttpRequest } from '../http/request.js';

export type Precondition = 'ok' | 'not-modified' | 'failed';

/**
 * RFC 9110 §13.2.2 order: If-Match, If-Unmodified-Since, If-None-Match, If-Modified-Since.
 * `exists` false means the target is unmapped (If-Match: * then fails, If-None-Match: * passes).
 */
export function checkPreconditions(req: HttpRequest, etag: string | null, modifiedAt: number | null): Precondition {
  const safe = req.method === 'GET' || req.method === 'HEAD';
  const ifMatch = req.header('if-match');
  if (ifMatch !== undefined) {
    if (!etag || !matches(ifMatch, etag, false)) return 'failed';
  } else {
    const ius = req.header('if-unmodified-since');
    const t = ius ? Date.parse(ius) : NaN;
    if (!Number.isNaN(t) && modifiedAt !== null && Math.floor(modifiedAt / 1000) > Math.floor(t / 1000))
      return 'failed';
  }
  const inm = req.header('if-none-match');
  if (inm !== undefined) {
    if (etag && matches(inm, etag, true)) return safe ? 'not-modified' : 'failed';
  } else if (safe) {
    const ims = req.header('if-modified-since');
    const t = ims ? Date.parse(ims) : NaN;
    if (!Number.isNaN(t) && modifiedAt !== null && Math.floor(modifiedAt / 1000) <= Math.floor(t / 1000))
      return 'not-modified';
  }
  return 'ok';
}

/** If-Range: the ranges apply only while the validator still matches (strong ETag or exact date). */
export function ifRangeHolds(req: HttpRequest, etag: string, modifiedAt: number): boolean {
  const v = req.header('if-range');
  if (!v) return true;
  if (v.startsWith('"') || v.startsWith('W/')) return v === etag;
  const t = Date.parse(v);
  return !Number.isNaN(t) && Math.floor(t / 1000) === Math.floor(modifiedAt / 1000);
}

function matches(header: string, etag: string, weak: boolean): boolean {
  if (header.trim() === '*') return true;
  const strip = (s: string) => (weak ? s.replace(/^W\//, '') : s);
  return header.split(',').some((t) => strip(t.trim()) === strip(etag));
}
