import { ERROR_CODES, type ErrorCode } from './error-codes.wire.js';
import type { Retryable } from './retryable.js';

export { ERROR_CODES, type ErrorCode } from './error-codes.wire.js';

/**
 * A failure with a code from the registry (`error-codes.wire.ts`). Domains throw it; the HTTP layer turns it into the
 * `{success:false,error}` envelope, WebDAV and FUSE into their own statuses, all from `status`.
 */
export class AppError extends Error implements Retryable {
  readonly code: ErrorCode;
  readonly status: number;
  readonly retryable: boolean;
  /** Safe to show to a user: a string, or structured detail (e.g. a list of field errors). */
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.retryable = ERROR_CODES[code].retryable;
    this.details = details ?? '';
  }
}

export const badRequest = (message: string, details?: unknown) => new AppError('BAD_REQUEST', message, details);
export const notFound = (message: string, details?: unknown) => new AppError('NOT_FOUND', message, details);
export const unauthorized = (message = 'Authentication required') => new AppError('UNAUTHORIZED', message);
export const forbidden = (message = 'Administrator privileges required') => new AppError('FORBIDDEN', message);
export const alreadyExists = (message: string, details?: unknown) => new AppError('ALREADY_EXISTS', message, details);
