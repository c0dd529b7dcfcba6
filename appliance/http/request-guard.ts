import type { Principal } from './context.js';
import { AppError } from '../errors/app-error.js';
import type { HttpRequest } from './request.js';
import type { RouteOptions } from './router.js';

/** Methods that change nothing; everything else is a state change (POST, PUT, PATCH, DELETE, MOVE, ...). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PROPFIND']);
const BINARY_TYPES = new Set(['application/octet-stream', 'application/x-tar']);

/** `application/json` or a `+json` type, parameters (charset) ignored. */
export function isJsonType(contentType: string): boolean {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[\w.-]+\+json$/.test(type);
}

/**
 * `/api` routes read JSON (docs/console-contract.md §7), so a state change there may carry only `application/json`. A browser page of
 * another origin can send text/plain, form-urlencoded or multipart without asking first (no CORS preflight), but
 * never application/json: refusing the others closes that door. Routes that read another body (the NZB upload)
 * say so with `body: 'multipart'`; /sabnzbd and /webdav are not JSON routes and check their own bodies.
 */
export function requireJsonBody(req: HttpRequest, path: string, options: RouteOptions): void {
  if (SAFE_METHODS.has(req.method) || !path.startsWith('/api/') || options.body === 'multipart') return;
  const type = req.header('content-type');
  if (options.body === 'binary') {
    // A page of another origin cannot send these types without a CORS preflight, which Spool never answers.
    if (type && BINARY_TYPES.has(type.split(';')[0]!.trim().toLowerCase())) return;
    throw new AppError('NOT_JSON', `This route reads a file: send it as application/octet-stream or application/x-tar`);
  }
  if (type === undefined ? req.body === null : isJsonType(type)) return;
  throw new AppError(
    'NOT_JSON',
    `This route reads JSON: send the body as application/json${type ? ` (got ${type.split(';')[0]})` : ''}`,
  );
}

/**
 * A state change carried by credentials the browser adds by itself (the session cookie, remembered Basic
 * credentials, or nothing at all when login is not required) must come from the console's own origin or a
 * trusted one. A page on another port of this host or on a sibling subdomain is "same site", so the SameSite
 * cookie alone does not stop it; but the browser names that page in `Origin` (or at least `Referer`). A request
 * with neither header comes from a non-browser client (curl, scripts), which no page can drive. API-key callers are
 * exempt: a page cannot make the browser add a key it does not know.
 */
export function checkOrigin(
  req: HttpRequest,
  principal: Principal | null,
  host: string | undefined,
  trustedOrigins: readonly string[],
): void {
  if (SAFE_METHODS.has(req.method)) return;
  checkPageOrigin(req, principal, host, trustedOrigins);
}

/**
 * The rule of `checkOrigin` for any method: a caller signed by what the browser adds by itself (cookie, Basic, or
 * nothing when login is not required) must name the console's own host or a trusted origin, when it names one at
 * all. The live channel (live.ts) applies it to its upgrade, a GET that a page of any origin can open as a
 * WebSocket (no CORS stops it reading the answers).
 */
export function checkPageOrigin(
  req: HttpRequest,
  principal: Principal | null,
  host: string | undefined,
  trustedOrigins: readonly string[],
): void {
  if (principal?.via === 'api_key') return;
  const origin = req.header('origin');
  const referer = origin === undefined ? req.header('referer') : undefined;
  if (origin === undefined && referer === undefined) return;
  const from = originOf(origin ?? (referer as string));
  if (from && (sameHost(from, host) || trustedOrigins.some((t) => originOf(t)?.origin === from.origin))) return;
  throw new AppError(
    'CROSS_ORIGIN_REFUSED',
    `Refused a request from ${from?.origin ?? 'an opaque origin'}: only the console's own address may change things with a signed-in browser. Add the address to auth.trusted_origins if it is yours.`,
  );
}

function originOf(value: string): URL | null {
  if (value === 'null') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** The page's host:port against the Host the request was sent to (the scheme may differ behind a TLS proxy). */
function sameHost(from: URL, host: string | undefined): boolean {
  return host !== undefined && from.host === host.trim().toLowerCase();
}
