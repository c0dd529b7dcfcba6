/**
 * Every error the HTTP layer can answer with. One registry: code -> HTTP status and whether a retry may help.
 * docs/errors.md lists the same codes; a unit test keeps the two in step.
 */
export const ERROR_CODES = {
  BAD_REQUEST: { status: 400, retryable: false },
  VALIDATION_FAILED: { status: 400, retryable: false },
  INVALID_JSON: { status: 400, retryable: false },
  UNAUTHORIZED: { status: 401, retryable: false },
  FORBIDDEN: { status: 403, retryable: false },
  CROSS_ORIGIN_REFUSED: { status: 403, retryable: false },
  NOT_FOUND: { status: 404, retryable: false },
  METHOD_NOT_ALLOWED: { status: 405, retryable: false },
  CONFLICT: { status: 409, retryable: false },
  PRECONDITION_FAILED: { status: 412, retryable: false },
  PAYLOAD_TOO_LARGE: { status: 413, retryable: false },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, retryable: false },
  RANGE_NOT_SATISFIABLE: { status: 416, retryable: false },
  RATE_LIMITED: { status: 429, retryable: true },
  INTERNAL: { status: 500, retryable: true },
  BAD_GATEWAY: { status: 502, retryable: true },
  UNAVAILABLE: { status: 503, retryable: true },
  TIMEOUT: { status: 504, retryable: true },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class AppError extends Error {
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
export const conflict = (message: string, details?: unknown) => new AppError('CONFLICT', message, details);

/** One field problem in a validation error; `details` of VALIDATION_FAILED is a list of these. */
export interface FieldError {
  field: string;
  message: string;
}

export const validationFailed = (errors: FieldError[], message?: string) =>
  new AppError(
    'VALIDATION_FAILED',
    message ?? `Validation failed: ${errors.map((e) => (e.field ? `${e.field}: ${e.message}` : e.message)).join('; ')}`,
    errors,
  );
