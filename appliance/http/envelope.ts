import type { AppError } from '../errors/app-error.js';
import type { ErrorEnvelope, PageMeta, SuccessEnvelope } from './envelope.wire.js';

/** Builds the `/api` envelope of envelope.wire.ts (docs/console-contract.md §7-8). */
export type { ErrorEnvelope, PageMeta, SuccessEnvelope } from './envelope.wire.js';

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
