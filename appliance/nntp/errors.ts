import type { Retryable } from '../errors/retryable.js';

/**
 * Typed NNTP failures. `retryable` says whether the same request may succeed on the same provider later;
 * an article missing or corrupt on one provider is not retryable there but may exist on the next one.
 */
export type NntpErrorKind =
  | 'article_missing'
  | 'auth'
  | 'provider_refused'
  | 'provider_capacity'
  | 'timeout'
  | 'connection_reset'
  | 'corrupt_article'
  | 'protocol'
  | 'tls'
  | 'no_provider'
  | 'aborted'
  | 'invalid_request';

export class NntpError extends Error implements Retryable {
  readonly kind: NntpErrorKind;
  readonly retryable: boolean;
  /** The NNTP status code that caused it, when there was one. */
  readonly status: number | undefined;
  providerId: string | undefined;

  constructor(kind: NntpErrorKind, message: string, retryable: boolean, status?: number) {
    super(message);
    this.name = 'NntpError';
    this.kind = kind;
    this.retryable = retryable;
    this.status = status;
  }
}

/** 430 / 423: the provider does not have the article. Try the next provider, never this one again. */
export class ArticleMissingError extends NntpError {
  constructor(messageId: string, status = 430) {
    super('article_missing', `Article ${messageId} not found (${status})`, false, status);
    this.name = 'ArticleMissingError';
  }
}

/** 480 / 481 / 482 and 502 during AUTHINFO: credentials rejected or required. */
export class AuthError extends NntpError {
  constructor(message: string, status?: number) {
    super('auth', message, false, status);
    this.name = 'AuthError';
  }
}

/** 400 / 502 outside authentication: the provider will not serve us now (too many connections, maintenance). */
export class ProviderRefusedError extends NntpError {
  constructor(message: string, status?: number) {
    super('provider_refused', message, false, status);
    this.name = 'ProviderRefusedError';
  }
}

/**
 * The account's connection cap is reached ("481 Too many connections" at the greeting or at AUTHINFO): a
 * capacity answer, not a wrong password. Retryable: the connections already open keep serving, and the pool opens
 * more once the provider allows them (provider-capacity.ts; docs/nntp.md, "Connection caps").
 */
export class ProviderCapacityError extends NntpError {
  constructor(message: string, status?: number) {
    super('provider_capacity', message, true, status);
    this.name = 'ProviderCapacityError';
  }
}

/** Codes providers refuse a connection over capacity with, at the greeting or at AUTHINFO. */
const CAPACITY_CODES = new Set([400, 481, 482, 502]);
/** What their texts say (docs/nntp.md, "Connection caps", lists the examples it is held to). */
const CAPACITY_TEXT =
  /too many (connections|sessions|users|logins)|connection limit|max(imum)? (number of )?(connections|sessions)|already connected|connections? exceeded/i;

/**
 * A capacity refusal when the code is one providers use for it and the text says so; else undefined (a 502 or a
 * 481 without such a text stays a refusal or an auth failure).
 */
export function capacityRefusal(code: number, text: string): ProviderCapacityError | undefined {
  if (!CAPACITY_CODES.has(code) || !CAPACITY_TEXT.test(text)) return undefined;
  return new ProviderCapacityError(`Connection limit reached: ${code} ${text}`.slice(0, 200), code);
}

export class TimeoutError extends NntpError {
  constructor(message: string) {
    super('timeout', message, true);
    this.name = 'TimeoutError';
  }
}

export class ConnectionResetError extends NntpError {
  constructor(message: string) {
    super('connection_reset', message, true);
    this.name = 'ConnectionResetError';
  }
}

/** CRC or size mismatch, or yEnc structure broken: the bytes are not returned as good data. */
export class CorruptArticleError extends NntpError {
  constructor(message: string) {
    super('corrupt_article', message, false);
    this.name = 'CorruptArticleError';
  }
}

/** The server said something that is not NNTP (garbage, oversized line, unexpected code). */
export class ProtocolError extends NntpError {
  constructor(message: string, status?: number) {
    super('protocol', message, true, status);
    this.name = 'ProtocolError';
  }
}

/**
 * The TLS handshake failed: the certificate is not trusted (self-signed, unknown CA, wrong name, expired) or the
 * port does not speak TLS. Not retryable: it fails the same way until the settings change.
 */
export class TlsError extends NntpError {
  /** OpenSSL / Node error code, e.g. DEPTH_ZERO_SELF_SIGNED_CERT. */
  readonly code: string | undefined;
  constructor(message: string, code?: string) {
    super('tls', message, false);
    this.name = 'TlsError';
    this.code = code;
  }
}

/** Every provider that could serve the request is disabled, removed or cooling down. */
export class NoProviderError extends NntpError {
  constructor(message = 'No NNTP provider is available') {
    super('no_provider', message, true);
    this.name = 'NoProviderError';
  }
}

export class AbortedError extends NntpError {
  constructor(message = 'Request aborted') {
    super('aborted', message, false);
    this.name = 'AbortError';
  }
}

export class InvalidRequestError extends NntpError {
  constructor(message: string) {
    super('invalid_request', message, false);
    this.name = 'InvalidRequestError';
  }
}

/**
 * What a failed request proves about the article itself. Only two answers are evidence: `missing` (430/423 from
 * every provider that should have it; the pool raises ArticleMissingError only then) and `damaged` (a complete body
 * whose CRC or size is wrong on every provider). A refused connection, a timeout, an auth failure or a provider
 * cooling down say nothing about the article: `undefined`, and nothing may be recorded, zero-filled or reported
 * to an arr as broken on their account.
 */
export type ArticleEvidence = 'missing' | 'damaged';

export function articleEvidence(err: unknown): ArticleEvidence | undefined {
  if (err instanceof ArticleMissingError) return 'missing';
  if (err instanceof CorruptArticleError) return 'damaged';
  return undefined;
}
