import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a stream link's token names: the link's id and its expiry (0: never), signed with the path it opens. */
export interface StreamLinkClaims {
  id: string;
  /** Unix seconds after which the link is refused; 0 for a link that never expires. */
  expiresAt: number;
}

const TOKEN = /^([A-Za-z0-9_-]{8,64})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/** HMAC-SHA256 over the id, the expiry and the path: a token copied onto another path or expiry no longer matches. */
function signature(secret: Buffer, claims: StreamLinkClaims, path: string): string {
  return createHmac('sha256', secret).update(`${claims.id}\n${claims.expiresAt}\n${path}`).digest('base64url');
}

/** The token of a link (`<id>.<expiry>.<signature>`), as it stands in the URL's first path segment. */
export function signStreamLink(secret: Buffer, claims: StreamLinkClaims, path: string): string {
  return `${claims.id}.${claims.expiresAt}.${signature(secret, claims, path)}`;
}

/** The claims a token states, unchecked; null for a token not in the link format. */
export function parseStreamLink(token: string): (StreamLinkClaims & { signature: string }) | null {
  const m = TOKEN.exec(token);
  if (!m) return null;
  return { id: m[1]!, expiresAt: Number(m[2]), signature: m[3]! };
}

/** Whether `sig` is the signature of these claims on `path` (compared in constant time). */
export function signatureHolds(secret: Buffer, claims: StreamLinkClaims, path: string, sig: string): boolean {
  const want = Buffer.from(signature(secret, claims, path));
  const got = Buffer.from(sig);
  return want.length === got.length && timingSafeEqual(want, got);
}
