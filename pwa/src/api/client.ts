/**
 * The one HTTP client of the console (docs/console-contract.md §7-8). Every call goes under /api, sends the session cookie, speaks JSON
 * and unwraps the `{success, data, error}` envelope. Failures become an `ApiError` with the texts of docs/console-contract.md §8.
 */
import type { ErrorCode } from '../../../appliance/errors/error-codes.wire';
import type { ErrorJson, PageMeta, SuccessEnvelope } from '../../../appliance/http/envelope.wire';

export type { ErrorCode, PageMeta };

/** What `api.list` answers: the page's items and where they stand (envelope.wire.ts `meta`). */
export interface Paged<T> {
  data: T[];
  meta: PageMeta;
}

export class ApiError extends Error {
  /** HTTP status; 0 means the server could not be reached at all. */
  readonly status: number;
  readonly details: unknown;
  /** The server's code for the cause (docs/errors.md); undefined when none came (network error, no envelope). */
  readonly code: ErrorCode | undefined;

  constructor(status: number, message: string, details?: unknown, code?: ErrorCode) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.details = details;
    this.code = code;
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }

  get isClientError(): boolean {
    return this.status >= 400 && this.status < 500;
  }
}

/**
 * What may come back: the envelope of envelope.wire.ts, read defensively (a proxy or the supervisor's 503 page may
 * answer an error as a plain string or `message`).
 */
type Envelope = Partial<Omit<SuccessEnvelope<unknown>, 'success'>> & {
  success?: boolean;
  error?: Partial<ErrorJson> | string;
  message?: string;
};

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  signal?: AbortSignal;
}

export const API_BASE = '/api';

function buildUrl(path: string, query?: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const qs = params.toString();
  return `${API_BASE}${path}${qs ? `?${qs}` : ''}`;
}

async function readEnvelope(res: Response): Promise<Envelope | undefined> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as Envelope;
  } catch {
    return undefined;
  }
}

function errorFrom(env: Envelope | undefined): Partial<ErrorJson> {
  if (!env) return {};
  if (typeof env.error === 'string') return { message: env.error };
  if (env.error) return env.error;
  return { message: env.message };
}

/** Sends one request and returns the whole envelope (for lists that need `meta`). */
async function send(method: Method, path: string, options: RequestOptions = {}): Promise<Envelope> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  // A file (a backup archive upload) goes as itself; anything else as JSON.
  const isFile = options.body instanceof Blob;
  if (options.body !== undefined) headers['Content-Type'] = isFile ? 'application/octet-stream' : 'application/json';
  let res: Response;
  try {
    res = await fetch(buildUrl(path, options.query), {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : isFile ? (options.body as Blob) : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(0, cause instanceof Error ? cause.message : 'Network error');
  }
  const env = await readEnvelope(res);
  if (!res.ok) {
    const err = errorFrom(env);
    throw new ApiError(res.status, err.message || `HTTP ${res.status}: ${res.statusText}`, err.details, err.code);
  }
  if (!env || env.success === false) {
    const err = errorFrom(env);
    throw new ApiError(res.status, err.message || 'API request failed', err.details, err.code);
  }
  return env;
}

export const api = {
  async get<T>(path: string, options?: RequestOptions): Promise<T> {
    return (await send('GET', path, options)).data as T;
  },
  async list<T>(path: string, options?: RequestOptions): Promise<Paged<T>> {
    const env = await send('GET', path, options);
    const data = Array.isArray(env.data) ? (env.data as T[]) : [];
    return { data, meta: env.meta ?? { total: data.length, limit: data.length, offset: 0 } };
  },
  async post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    return (await send('POST', path, { ...options, body })).data as T;
  },
  async put<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    return (await send('PUT', path, { ...options, body })).data as T;
  },
  async patch<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    return (await send('PATCH', path, { ...options, body })).data as T;
  },
  async delete<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    return (await send('DELETE', path, { ...options, body })).data as T;
  },
};

/** A readable line for a toast: the message, plus field details when the server listed them. */
export function describeError(err: unknown, fallback: string): string {
  if (!(err instanceof Error)) return fallback;
  if (err instanceof ApiError && Array.isArray(err.details) && err.details.length > 0) {
    const lines = err.details
      .map((d: unknown) => {
        if (d && typeof d === 'object' && 'message' in d) {
          const field = 'field' in d && typeof d.field === 'string' && d.field ? `${d.field}: ` : '';
          return `${field}${String(d.message)}`;
        }
        return typeof d === 'string' ? d : '';
      })
      .filter(Boolean);
    if (lines.length > 0) return lines.join('; ');
  }
  if (err instanceof ApiError && typeof err.details === 'string' && err.details)
    return `${err.message}: ${err.details}`;
  return err.message || fallback;
}
