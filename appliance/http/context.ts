import type { ZodType } from 'zod';
import { readAll } from './body.js';
import { AppError } from '../errors/app-error.js';
import type { Reply } from './reply.js';
import type { HttpRequest } from './request.js';
import { zodToFieldErrors } from '../errors/field-errors.js';
import { validationFailed } from '../errors/field-errors.js';

/** Who is calling. `null` on a public route with nobody signed in. */
export interface Principal {
  userId: string;
  name: string;
  isAdmin: boolean;
  /** How the caller proved who they are. 'open' = login not required, everyone is treated as admin. */
  via: 'session' | 'api_key' | 'basic' | 'forward' | 'open';
  sessionId?: string;
  /** May read but not change anything: the `webdav.user` pair of media players. */
  readOnly?: boolean;
  /** A named API key's scope (auth/api-key.wire.ts): what the key may do within what its user may. */
  keyScope?: 'full' | 'sabnzbd' | 'add-only' | 'metrics' | 'read-only';
}

export const DEFAULT_JSON_LIMIT = 1024 * 1024;

export class Ctx {
  constructor(
    readonly req: HttpRequest,
    readonly reply: Reply,
    readonly principal: Principal | null,
    private readonly bodyLimit: number,
  ) {}

  get params(): Record<string, string> {
    return this.req.params;
  }

  get query(): URLSearchParams {
    return this.req.query;
  }

  /** The raw body, refused past the route's limit. */
  async body(limit = this.bodyLimit): Promise<Buffer> {
    return readAll(this.req.body, Math.min(limit, this.bodyLimit));
  }

  /**
   * Parses a JSON body and, with a schema, validates it, reporting every bad field at once.
   * An empty body parses as `{}` so optional-only payloads work without one.
   */
  async json<T>(schema?: ZodType<T>): Promise<T> {
    const raw = await this.body();
    let value: unknown = {};
    if (raw.length > 0) {
      try {
        value = JSON.parse(raw.toString('utf8'));
      } catch (err) {
        throw new AppError('INVALID_JSON', 'Request body is not valid JSON', (err as Error).message);
      }
    }
    if (!schema) return value as T;
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw validationFailed(zodToFieldErrors(parsed.error));
    return parsed.data;
  }

  /** The principal, or a 401 (for routes whose access rule already guarantees one). */
  get user(): Principal {
    if (!this.principal) throw new AppError('AUTH_REQUIRED', 'Authentication required');
    return this.principal;
  }
}
