import type { Reply } from './reply.js';

/**
 * The console's policy: its own scripts, styles, workers and manifest only. Images and media may also be blob:
 * (previews), frames blob: (the PDF preview), images data: (icons inlined by the build).
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "frame-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Everything else (API JSON, WebDAV files and listings, SABnzbd, /ping) is data, never a page: no content may load
 * and the document is sandboxed, so a file served from /webdav cannot run script at the console's origin even if
 * a browser is sent straight to it.
 */
export const DATA_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";

/** Headers every answer carries (set again, replacing, when the answer turns out to be a console page): no MIME sniffing, no framing (clickjacking), a Content-Security-Policy. */
export function addSecurityHeaders(reply: Reply, kind: 'console' | 'data'): void {
  reply
    .setHeader('X-Content-Type-Options', 'nosniff')
    .setHeader('X-Frame-Options', 'DENY')
    .setHeader('Referrer-Policy', 'same-origin')
    .setHeader('Content-Security-Policy', kind === 'console' ? CONSOLE_CSP : DATA_CSP);
}
