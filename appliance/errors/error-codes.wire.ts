/**
 * Every coded error Spool answers with, named for its cause. One registry: code -> HTTP status and whether a retry
 * may help. docs/errors.md lists the same codes; `error-codes.test.ts` keeps the two in step. Several codes share a
 * status (400 has ten causes, 409 five): clients switch on the code, HTTP on the status. A wire file (pure data): the console
 * reads the codes it switches on from here (docs/contributing.md "Wire types").
 */
export const ERROR_CODES = {
  VALIDATION_FAILED: { status: 400, retryable: false },
  INVALID_JSON: { status: 400, retryable: false },
  INVALID_PARAMETER: { status: 400, retryable: false },
  INVALID_PATH: { status: 400, retryable: false },
  INVALID_LAYOUT: { status: 400, retryable: false },
  NOT_A_FILE: { status: 400, retryable: false },
  MALFORMED_BODY: { status: 400, retryable: false },
  CLIENT_CLOSED: { status: 400, retryable: false },
  BACKUP_REFUSED: { status: 400, retryable: false },
  CONFIG_FILE_MISSING: { status: 400, retryable: false },
  AUTH_REQUIRED: { status: 401, retryable: false },
  FORWARDED_USER_INVALID: { status: 401, retryable: false },
  BAD_CREDENTIALS: { status: 401, retryable: false },
  OIDC_REFUSED: { status: 401, retryable: false },
  ADMIN_REQUIRED: { status: 403, retryable: false },
  KEY_SCOPE_REFUSED: { status: 403, retryable: false },
  READ_ONLY_USER: { status: 403, retryable: false },
  PASSWORD_LOGIN_OFF: { status: 403, retryable: false },
  REGISTRATION_CLOSED: { status: 403, retryable: false },
  CROSS_ORIGIN_REFUSED: { status: 403, retryable: false },
  PROTECTED_PATH: { status: 403, retryable: false },
  NO_SUCH_ROUTE: { status: 404, retryable: false },
  NO_SUCH_RECORD: { status: 404, retryable: false },
  NO_SUCH_PATH: { status: 404, retryable: false },
  OIDC_NOT_CONFIGURED: { status: 404, retryable: false },
  // The console contract names this code for a repair of a file no Radarr/Sonarr instance manages
  // (docs/console-contract.md, Health repair), so it keeps the contract's name.
  NOT_FOUND: { status: 404, retryable: false },
  WRONG_METHOD: { status: 405, retryable: false },
  PATH_TAKEN: { status: 405, retryable: false },
  ALREADY_EXISTS: { status: 409, retryable: false },
  LAST_ADMIN: { status: 409, retryable: false },
  IN_PROGRESS: { status: 409, retryable: true },
  REPAIR_HELD: { status: 409, retryable: true },
  PARENT_MISSING: { status: 409, retryable: false },
  NOT_A_DIRECTORY: { status: 409, retryable: false },
  DESTINATION_EXISTS: { status: 412, retryable: false },
  BODY_TOO_LARGE: { status: 413, retryable: false },
  NOT_JSON: { status: 415, retryable: false },
  NOT_MULTIPART: { status: 415, retryable: false },
  RATE_LIMITED: { status: 429, retryable: true },
  UNEXPECTED: { status: 500, retryable: true },
  MOUNT_FAILED: { status: 500, retryable: true },
  ARTICLE_UNAVAILABLE: { status: 502, retryable: true },
  REPAIR_FAILED: { status: 502, retryable: true },
  NZB_FETCH_FAILED: { status: 502, retryable: true },
  STARTING: { status: 503, retryable: true },
  QUEUE_FULL: { status: 503, retryable: true },
  DISK_FULL: { status: 507, retryable: true },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;
