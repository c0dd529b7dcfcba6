import type { AppError } from '../errors/app-error.js';

/** The `/api` response envelope of docs/console-contract.md §7-8: `{success, data, error}`; error is `{message, details}`. */
export interface SuccessEnvelope<T> {
  success: true;
  data: T;
  meta?: PageMeta;
}

export interface ErrorEnvelope {
  success: false;
  error: { message: string; details: unknown; code: string; request_id?: string };
}

export interface PageMeta {
  total: number;
  limit: number;
  offset: number;
}

/** Returned by a handler that answers a paged list: becomes `{success, data: items, meta}`. */
export class Page<T> {
  constructor(
    readonly items: T[],
    readonly meta: PageMeta,
  ) {}
}

export function successBody(value: unknown): SuccessEnvelope<unknown> {
  if (value instanceof Page) return { success: true, data: value.items, meta: value.meta };
  return { success: true, data: value === undefined ? null : value };
}

export function errorBody(err: AppError, requestId?: string): ErrorEnvelope {
  return {
    success: false,
    error: {
      message: err.message,
      details: err.details,
      code: err.code,
      ...(requestId ? { request_id: requestId } : {}),
    },
  };
}
