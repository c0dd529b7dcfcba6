import type { HttpRequest as UwsRequest, HttpResponse as UwsResponse } from 'uws-pack';
import type { Logger } from '../logging/logger.js';
import { BodyStream } from './body.js';
import { Ctx, DEFAULT_JSON_LIMIT, type Principal } from './context.js';
import { errorBody, successBody } from './envelope.js';
import { AppError } from '../errors/app-error.js';
import { diskFullError, isDiskFull } from '../errors/disk-full.js';
import type { InflightCounter } from './inflight.js';
import { Reply } from './reply.js';
import { readRequest, type HttpRequest } from './request.js';
import { clientAddress, TrustedProxies } from './client-address.js';
import { checkOrigin, requireJsonBody } from './request-guard.js';
import { addSecurityHeaders } from './security-headers.js';
import { routeChanges, type Access, type RouteOptions, type Router } from './router.js';

/** How the HTTP layer learns who is calling; the auth domain implements it. */
export interface Gatekeeper {
  /** Identifies the caller from session cookie, API key or Basic auth; null when none is valid. */
  identify(req: HttpRequest): Promise<Principal | null>;
  /** auth.login_required; when false every route is open and callers are treated as admins. */
  loginRequired(): boolean;
}

/** Who sits between the browser and us: reverse proxies to believe, other addresses the console is opened at. */
export interface NetworkPolicy {
  /** auth.trusted_proxies: peers whose X-Forwarded-For/-Proto/-Host count. */
  trustedProxies(): TrustedProxies;
  /** auth.trusted_origins: other origins whose pages may drive a signed-in browser's state changes. */
  trustedOrigins(): readonly string[];
}

const NO_PROXIES = new TrustedProxies([]);
const LOCAL_ONLY: NetworkPolicy = { trustedProxies: () => NO_PROXIES, trustedOrigins: () => [] };

/** Answers requests no route matched (static console files, SPA fallback). Return false to fall through to 404. */
export type Fallback = (req: HttpRequest, reply: Reply) => boolean | Promise<boolean>;

export interface DispatchOptions {
  router: Router;
  gatekeeper: Gatekeeper;
  /** Trusted proxies and origins (default: none). */
  network?: NetworkPolicy;
  logger: Logger;
  fallback?: Fallback;
  /** While false, everything (including /ping) answers 503: the process is still starting. */
  isReady?: () => boolean;
  /** Counts requests in progress, for a graceful stop. */
  inflight?: InflightCounter;
  /** A request failed because the disk is full (the app announces it as 'disk.full'). */
  onDiskFull?: (where: string, error: string) => void;
}

export const OPEN_PRINCIPAL: Principal = { userId: 'open', name: 'admin', isAdmin: true, via: 'open' };

export function createDispatcher(opts: DispatchOptions): (res: UwsResponse, req: UwsRequest) => void {
  const maxBody = opts.router.maxBodyLimit(DEFAULT_JSON_LIMIT);
  return (res, req) => {
    const reply = new Reply(res);
    const contentLength = req.getHeader('content-length');
    const chunked = req.getHeader('transfer-encoding') !== '';
    const declared = contentLength === '' ? null : Number(contentLength);
    const body =
      chunked || (declared !== null && declared > 0)
        ? new BodyStream(res, Number.isFinite(declared) ? declared : null, maxBody)
        : null;
    // Swallow stream errors here; readers of the body see them through their own iteration.
    body?.on('error', () => undefined);
    reply.onAborted(() => body?.abort());
    const request = readRequest(res, req, body);
    void handle(opts, request, reply);
  };
}

async function handle(opts: DispatchOptions, req: HttpRequest, reply: Reply): Promise<void> {
  opts.inflight?.enter();
  const network = opts.network ?? LOCAL_ONLY;
  addSecurityHeaders(reply, 'data');
  try {
    const proxies = network.trustedProxies();
    req.viaTrustedProxy = proxies.has(req.peer);
    req.ip = clientAddress(req.peer, req.header('x-forwarded-for'), proxies);
    if (opts.isReady && !opts.isReady()) {
      throw new AppError('STARTING', 'Spool is starting');
    }
    const match = opts.router.match(req.method, req.rawPath);
    if (match.kind === 'method_not_allowed') {
      reply.header('Allow', match.allowed.join(', '));
      throw new AppError('WRONG_METHOD', `Method ${req.method} not allowed on ${req.rawPath}`);
    }
    if (match.kind === 'none' && !req.rawPath.startsWith('/api/') && opts.fallback) {
      addSecurityHeaders(reply, 'console');
      if (await opts.fallback(req, reply)) return;
      addSecurityHeaders(reply, 'data');
    }
    if (match.kind === 'none') {
      throw new AppError('NO_SUCH_ROUTE', `No route for ${req.method} ${req.rawPath}`);
    }
    req.params = decodeParams(match.params);
    const principal = await authorize(opts.gatekeeper, req, match.route.options.access);
    refuseReadOnly(principal, match.route.options, req.method);
    requireJsonBody(req, req.rawPath, match.route.options);
    checkOrigin(req, principal, publicHost(req), network.trustedOrigins());
    const ctx = new Ctx(req, reply, principal, match.route.options.bodyLimit ?? DEFAULT_JSON_LIMIT);
    req.body?.setLimit(match.route.options.bodyLimit ?? DEFAULT_JSON_LIMIT);
    const result = await match.route.handler(ctx);
    if (!reply.sent && !reply.aborted) reply.json(200, successBody(result));
  } catch (err) {
    if (opts.onDiskFull && !(err instanceof AppError) && isDiskFull(err))
      opts.onDiskFull(`${req.method} ${req.rawPath}`, (err as Error).message);
    sendError(opts.logger, req, reply, err);
  } finally {
    opts.inflight?.leave();
    // A body nobody read: drain it so the connection stays usable, unless it is over the limit (then it errored).
    if (req.body && !req.body.readableEnded && !req.body.destroyed) req.body.resume();
  }
}

/** The caller of a route with rule `access`, or the 401/403 that refuses it (the live channel's upgrade too). */
export async function authorize(gatekeeper: Gatekeeper, req: HttpRequest, access: Access): Promise<Principal | null> {
  if (!gatekeeper.loginRequired()) return (await gatekeeper.identify(req)) ?? OPEN_PRINCIPAL;
  const principal = await gatekeeper.identify(req);
  if (access === 'public') return principal;
  if (!principal) throw new AppError('AUTH_REQUIRED', 'Authentication required');
  if (access === 'admin' && !principal.isAdmin)
    throw new AppError('ADMIN_REQUIRED', 'Administrator privileges required');
  return principal;
}

/**
 * A read-only caller (a read-only user, a read-only key, the webdav.user pair) may call no route that changes
 * something. Public routes check for themselves (WebDAV refuses its writes; signing in or out is no change).
 */
function refuseReadOnly(principal: Principal | null, options: RouteOptions, method: string): void {
  if (principal?.readOnly && options.access !== 'public' && routeChanges(options, method))
    throw new AppError('READ_ONLY_USER', 'This account is read-only: it can look but not change anything');
}

/** The host the browser addressed: behind a trusted proxy its X-Forwarded-Host, else Host. */
export function publicHost(req: HttpRequest): string | undefined {
  const forwarded = req.viaTrustedProxy ? req.header('x-forwarded-host')?.split(',')[0]?.trim() : undefined;
  return forwarded || req.header('host');
}

function decodeParams(params: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) {
    try {
      out[k] = decodeURIComponent(v);
    } catch {
      throw new AppError('INVALID_PATH', `Malformed percent-encoding in path parameter '${k}'`);
    }
  }
  return out;
}

export function sendError(logger: Logger, req: HttpRequest, reply: Reply, err: unknown): void {
  if (reply.aborted) return; // the client left: not an error
  let appErr: AppError;
  const diskFull = diskFullError(err);
  if (err instanceof AppError) {
    appErr = err;
  } else if (diskFull) {
    // Not a bug: the rest keeps running, reads still work; the operator has to free space.
    logger.error('disk full', { request_id: req.requestId, method: req.method, path: req.rawPath });
    appErr = diskFull;
  } else {
    logger.error('unhandled error', {
      request_id: req.requestId,
      method: req.method,
      path: req.rawPath,
      error: err instanceof Error ? (err.stack ?? err.message) : String(err),
    });
    appErr = new AppError('UNEXPECTED', 'Internal server error', `request id ${req.requestId}`);
  }
  if (reply.sent) {
    // Headers already went out (a stream failed midway): the only honest thing left is to cut the connection.
    reply.close();
    return;
  }
  if (appErr.status === 413) reply.header('Connection', 'close');
  if (appErr.status === 429 && isRetryAfter(appErr.details))
    reply.header('Retry-After', String(appErr.details.retry_after_seconds));
  // WebDAV clients need the Basic challenge to know they should send credentials. Never on /api: a browser
  // would pop up its own login dialog over the console.
  if (appErr.status === 401 && (req.rawPath === '/webdav' || req.rawPath.startsWith('/webdav/'))) {
    reply.header('WWW-Authenticate', 'Basic realm="Spool", charset="UTF-8"');
  }
  reply.json(appErr.status, errorBody(appErr, appErr.status >= 500 ? req.requestId : undefined));
}

function isRetryAfter(details: unknown): details is { retry_after_seconds: number } {
  return (
    typeof details === 'object' &&
    details !== null &&
    typeof (details as Record<string, unknown>).retry_after_seconds === 'number'
  );
}
