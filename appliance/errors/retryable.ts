/**
 * The one notion of "may a retry help": the same operation, repeated later unchanged, may succeed. `AppError`
 * (from its code), `NntpError` (per provider: a missing article is not retryable there) and `ImportError` (a broken
 * NZB is not; a provider outage is) all carry it under this name.
 */
export interface Retryable {
  readonly retryable: boolean;
}
