import type { HttpRequest as UwsRequest, HttpResponse as UwsResponse } from 'uws-pack';
import type { BodyStream } from './body.js';

/**
 * A request as domain code sees it. Everything uWS offers only synchronously (method, url, headers, address) is
 * copied here before the first `await`, because uWS's request object is dead after the handler returns.
 */
export interface HttpRequest {
  /** As sent, e.g. 'GET', 'PROPFIND'. */
  readonly method: string;
  /** Path without query string, still percent-encoded. */
  readonly rawPath: string;
  readonly query: URLSearchParams;
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  /** The socket's peer address (a reverse proxy's, when there is one). */
  readonly peer: string;
  /** The client's address: the peer, or from a trusted proxy what X-Forwarded-For says (set by the dispatcher). */
  ip: string;
  /** The peer is one of `auth.trusted_proxies`, so its X-Forwarded-* headers count (set by the dispatcher). */
  viaTrustedProxy: boolean;
  readonly requestId: string;
  /** Route parameters, percent-decoded. */
  params: Record<string, string>;
  /** Body bytes as they arrive (only for requests that carry a body). */
  readonly body: BodyStream | null;
  header(name: string): string | undefined;
  cookie(name: string): string | undefined;
}

let nextId = 1;

export function readRequest(res: UwsResponse, req: UwsRequest, body: BodyStream | null): HttpRequest {
  // getCaseSensitiveMethod first: getMethod() lower-cases in place (docs/architecture.md, "uWS traps").
  const method = req.getCaseSensitiveMethod().toUpperCase();
  const rawPath = req.getUrl();
  const query = new URLSearchParams(req.getQuery() ?? '');
  const headers: Record<string, string> = {};
  req.forEach((k, v) => {
    headers[k] = headers[k] === undefined ? v : `${headers[k]}, ${v}`;
  });
  const peer = Buffer.from(res.getRemoteAddressAsText()).toString();
  let cookies: Record<string, string> | undefined;
  return {
    method,
    rawPath,
    query,
    headers,
    peer,
    ip: peer,
    viaTrustedProxy: false,
    requestId: `r${(nextId++).toString(36)}`,
    params: {},
    body,
    header: (name) => headers[name.toLowerCase()],
    cookie(name) {
      cookies ??= parseCookies(headers['cookie'] ?? '');
      return cookies[name];
    },
  };
}

export function parseCookies(header: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const key = part.slice(0, eq).trim();
    const raw = part.slice(eq + 1).trim();
    try {
      out[key] = decodeURIComponent(raw);
    } catch {
      out[key] = raw;
    }
  }
  return out;
}
