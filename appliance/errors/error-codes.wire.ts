/**
 * Every coded error Spool answers with, named for its cause. One registry: code -> HTTP status and whether a retry
 * may help. docs/errors.md lists the same codes; `error-codes.test.ts` keeps the two in step. Several codes share a
 * status (409 has five causes): clients switch on the code, HTTP on the status. A wire file (pure data): the console
 * reads the codes it switches on from here (docs/contributing.md "Wire types").
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
  ALREADY_EXISTS: { status: 409, retryable: false },
  LAST_ADMIN: { status: 409, retryable: false },
  IN_PROGRESS: { status: 409, retryable: true },
  PARENT_MISSING: { status: 409, retryable: false },
  NOT_A_DIRECTORY: { status: 409, retryable: false },
  PRECONDITION_FAILED: { status: 412, retryable: false },
  PAYLOAD_TOO_LARGE: { status: 413, retryable: false },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, retryable: false },
  RANGE_NOT_SATISFIABLE: { status: 416, retryable: false },
  RATE_LIMITED: { status: 429, retryable: true },
  INTERNAL: { status: 500, retryable: true },
  BAD_GATEWAY: { status: 502, retryable: true },
  UNAVAILABLE: { status: 503, retryable: true },
  DISK_FULL: { status: 507, retryable: true },
  TIMEOUT: { status: 504, retryable: true },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;
