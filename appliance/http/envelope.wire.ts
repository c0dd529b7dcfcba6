/**
 * The `/api` response envelope of docs/console-contract.md §7-8, as the server writes it (envelope.ts) and the console
 * reads it (pwa/src/api/client.ts): `{success: true, data, meta?}` or `{success: false, error}`. A wire file: types
 * only (docs/contributing.md "Wire types").
 */
import type { ErrorCode } from '../errors/error-codes.wire.js';

/** A paged list's position: `total` items in all, `limit` per page (0: all), starting at `offset`. */
export interface PageMeta {
  total: number;
  limit: number;
  offset: number;
}

export interface SuccessEnvelope<T> {
  success: true;
  data: T;
  meta?: PageMeta;
}

/** A failure: the code names its cause (docs/errors.md); details are safe to show (`VALIDATION_FAILED`: a list of `{field, message}`). */
export interface ErrorJson {
  message: string;
  details: unknown;
  code: ErrorCode;
  /** Set on a 500: the id the server's log line carries. */
  request_id?: string;
}

export interface ErrorEnvelope {
  success: false;
  error: ErrorJson;
}
