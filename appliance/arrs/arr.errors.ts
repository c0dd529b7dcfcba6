import type { Retryable } from '../errors/retryable.js';

/**
 * Typed failures of a call to a Radarr/Sonarr instance. `retryable` says whether the same call may succeed later
 * without anyone changing the config: an outage, a timeout, a 5xx or the arr's 409 "root folder missing" failsafe
 * (storage not mounted yet) are retryable; a wrong key, an unknown record or an answer we cannot read are not.
 */
export type ArrErrorKind =
  | 'unauthorized'
  | 'not_found'
  | 'conflict'
  | 'server'
  | 'unreachable'
  | 'timeout'
  | 'rejected'
  | 'bad_response'
  | 'invalid_url';

export class ArrError extends Error implements Retryable {
  constructor(
    readonly kind: ArrErrorKind,
    message: string,
    readonly retryable: boolean,
    /** HTTP status when the arr answered; undefined when it did not. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ArrError';
  }
}

/** 401/403: the API key is wrong (the arr answers 401 for a missing or wrong X-Api-Key). */
export class ArrAuthError extends ArrError {
  constructor(what: string, status: number) {
    super('unauthorized', `${what}: the API key was refused (HTTP ${status})`, false, status);
  }
}

/** 404: the record (or the route: not a Radarr/Sonarr v3 API at that URL) does not exist. */
export class ArrNotFoundError extends ArrError {
  constructor(what: string) {
    super('not_found', `${what}: not found (HTTP 404)`, false, 404);
  }
}

/** 409 on a file delete: the arr refuses because the movie's or series' root folder is missing or empty. */
export class ArrConflictError extends ArrError {
  constructor(what: string, detail: string) {
    super(
      'conflict',
      `${what}: refused (HTTP 409${detail ? `: ${detail}` : ''}); is its root folder mounted?`,
      true,
      409,
    );
  }
}

export class ArrServerError extends ArrError {
  constructor(what: string, status: number, detail: string) {
    super('server', `${what}: server error (HTTP ${status}${detail ? `: ${detail}` : ''})`, true, status);
  }
}

/** Connection refused, DNS failure, reset: nothing answered. */
export class ArrUnreachableError extends ArrError {
  constructor(what: string, cause: string) {
    super('unreachable', `${what}: unreachable (${cause})`, true);
  }
}

export class ArrTimeoutError extends ArrError {
  constructor(what: string, ms: number) {
    super('timeout', `${what}: no answer within ${ms} ms`, true);
  }
}

/** Any other 4xx: the arr refused the request itself (e.g. 400 for a missing parameter). */
export class ArrRejectedError extends ArrError {
  constructor(what: string, status: number, detail: string) {
    super('rejected', `${what}: refused (HTTP ${status}${detail ? `: ${detail}` : ''})`, false, status);
  }
}

/** A 2xx whose body is not the JSON we expect (another application at that URL). */
export class ArrBadResponseError extends ArrError {
  constructor(what: string, detail: string) {
    super('bad_response', `${what}: unexpected answer (${detail})`, false);
  }
}

/** The configured URL cannot be requested at all (not a URL, credentials in it): a config fix is needed. */
export class ArrUrlError extends ArrError {
  constructor(what: string, detail: string) {
    super('invalid_url', `${what}: the URL cannot be used (${detail})`, false);
  }
}
