import type { Retryable } from '../errors/retryable.js';

/**
 * Why an import failed, worded for the person reading the queue. A failure that is not `retryable` (a broken NZB,
 * articles missing from every provider) fails the item at once: trying again later gives the same answer. A
 * retryable one (a provider down, a timeout) is retried with back-off.
 */
export class ImportError extends Error implements Retryable {
  override readonly name = 'ImportError';
  constructor(
    message: string,
    readonly retryable: boolean,
    /** A machine-readable reason when callers act on it (`ARCHIVE_COMPRESSED`: forward to a fallback host). */
    readonly code?: string,
  ) {
    super(message);
  }
}

/**
 * An NZB Spool imports fine but cannot stream (for example a compressed archive): with `sabnzbd.fallback_host`
 * set it is forwarded to that real SABnzbd instead of failing (docs/sabnzbd.md); otherwise it fails like any other.
 */
export class UnstreamableError extends ImportError {
  constructor(message: string) {
    super(message, false);
  }
}

/** Whether a failed import is one Spool cannot stream: the fallback SABnzbd may take it instead. */
export function isUnstreamable(err: unknown): err is ImportError {
  return err instanceof UnstreamableError || (err instanceof ImportError && err.code === 'ARCHIVE_COMPRESSED');
}

export const nonRetryableError = (message: string) => new ImportError(message, false);
export const retryableError = (message: string) => new ImportError(message, true);

/** Retry i (0-based) waits base * 2^i, capped: 1, 2, 4, 8 ... minutes up to an hour with the defaults. */
export function retryDelayMs(attempt: number, baseMs = 60_000, capMs = 3_600_000): number {
  return Math.min(capMs, baseMs * 2 ** Math.max(0, attempt));
}
