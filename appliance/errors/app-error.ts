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

export const noSuchRecord = (message: string, details?: unknown) => new AppError('NO_SUCH_RECORD', message, details);
export const badCredentials = (message = 'Invalid username or password') => new AppError('BAD_CREDENTIALS', message);
export const alreadyExists = (message: string, details?: unknown) => new AppError('ALREADY_EXISTS', message, details);
