import type { Ctx } from '../http/context.js';
import type { HttpRequest } from '../http/request.js';
import { SESSION_COOKIE } from './session.service.js';

/**
 * Behind a TLS-terminating proxy the request reaches us as plain HTTP; the proxy says so in X-Forwarded-Proto.
 * Believed only from `auth.trusted_proxies`.
 */
export function cameOverHttps(req: HttpRequest): boolean {
  if (!req.viaTrustedProxy) return false;
  const proto = req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  return proto === 'https';
}

export function setSessionCookie(ctx: Ctx, sessionId: string, maxAgeSeconds: number): void {
  ctx.reply.cookie(SESSION_COOKIE, sessionId, {
    maxAgeSeconds,
    httpOnly: true,
    sameSite: 'Lax',
    secure: cameOverHttps(ctx.req),
  });
}

export function clearSessionCookie(ctx: Ctx): void {
  ctx.reply.cookie(SESSION_COOKIE, '', {
    maxAgeSeconds: 0,
    httpOnly: true,
    sameSite: 'Lax',
    secure: cameOverHttps(ctx.req),
  });
}
