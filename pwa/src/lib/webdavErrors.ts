/** The WebDAV error texts and retry rules of docs/console-contract.md §8, kept apart from the client so they are unit-testable. */

export type WebdavOp = 'list' | 'stat' | 'download' | 'delete' | 'connect' | 'read';

export class WebdavError extends Error {
  /** HTTP status; 0 for a network failure, -1 for a timeout. */
  readonly status: number;
  readonly op: WebdavOp;

  constructor(status: number, op: WebdavOp, message: string) {
    super(message);
    this.name = 'WebdavError';
    this.status = status;
    this.op = op;
  }
}

export const TIMEOUT_STATUS = -1;
export const CONNECT_FAILED_MESSAGE = 'Failed to connect to WebDAV server - authentication required';

export function messageForStatus(status: number, op: WebdavOp, statusText = ''): string {
  switch (status) {
    case 0:
      return `Network error during ${op}: Unable to connect to WebDAV server`;
    case TIMEOUT_STATUS:
      return 'Timeout error: Request took too long';
    case 401:
      return 'Unauthorized: Authentication required';
    case 403:
      return 'Forbidden: Access denied';
    case 404:
      return 'Not Found: Path does not exist';
    case 500:
      return 'Server Error';
    case 502:
      return 'Bad Gateway: WebDAV server unavailable';
    case 503:
      return 'Service Unavailable: WebDAV server overloaded';
    default:
      return `HTTP ${status}${statusText ? `: ${statusText}` : ''}`;
  }
}

const NO_RETRY = new Set([400, 401, 403, 404, 500, 502, 503, 504]);

/** A directory listing is not retried on these statuses and otherwise retried at most once (docs/console-contract.md §8). */
export function shouldRetryListing(failureCount: number, error: unknown): boolean {
  if (error instanceof WebdavError && NO_RETRY.has(error.status)) return false;
  return failureCount < 1;
}

/** The line shown under 'Connection Failed': authentication problems get the contract's connect text (docs/console-contract.md §8). */
export function connectFailureMessage(error: unknown): string {
  if (error instanceof WebdavError) {
    return error.status === 401 || error.status === 403 ? CONNECT_FAILED_MESSAGE : error.message;
  }
  return error instanceof Error && error.message ? error.message : CONNECT_FAILED_MESSAGE;
}
