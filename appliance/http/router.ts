import type { Ctx } from './context.js';

export type Access = 'public' | 'user' | 'admin';

export interface RouteOptions {
  /** public: anyone; user: signed in (or login not required); admin: an administrator (or login not required). */
  access: Access;
  /** Largest body this route accepts, in bytes (default 1 MiB). */
  bodyLimit?: number;
  /**
   * What the body is: `/api` routes read JSON unless they say `multipart` (the NZB upload) or `binary` (a backup
   * archive: `application/octet-stream` or `application/x-tar`, streamed by the route).
   */
  body?: 'json' | 'multipart' | 'binary';
  /**
   * Whether a call changes something: a read-only caller is refused every route that does (dispatch.ts). By
   * default every method but GET, HEAD, OPTIONS and PROPFIND does; a POST that only reads says `changes: false`.
   */
  changes?: boolean;
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PROPFIND']);

/** Whether calling `route` with `method` changes something (RouteOptions.changes). */
export function routeChanges(options: RouteOptions, method: string): boolean {
  return options.changes ?? !READ_METHODS.has(method);
}

export type Handler = (ctx: Ctx) => unknown;

export interface Route {
  pattern: string;
  methods: Set<string> | '*';
  segments: string[];
  /** Pattern ends in `/*`: matches any deeper path; the rest lands in params['*']. */
  wildcard: boolean;
  options: RouteOptions;
  handler: Handler;
  /** Literal segments count more than params: '/queue/stats' beats '/queue/:id'. */
  rank: number;
}

export type Match =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allowed: string[] }
  | { kind: 'none' };

/**
 * A small table router: patterns like `/api/queue/:id` and `/webdav/*`, most specific first. We route ourselves
 * from one uWS `any('/*')` because uWS's own route order lets a `get('/*')` beat `any('/webdav/*')`
 * (docs/architecture.md, "uWS traps").
 */
export class Router {
  private readonly routes: Route[] = [];

  add(methods: string | string[], pattern: string, options: RouteOptions, handler: Handler): this {
    const wildcard = pattern.endsWith('/*');
    const segments = split(wildcard ? pattern.slice(0, -2) : pattern);
    const rank = segments.reduce((sum, s) => sum + (s.startsWith(':') ? 1 : 2), 0) * 2 + (wildcard ? 0 : 1);
    const set =
      methods === '*' ? '*' : new Set((Array.isArray(methods) ? methods : [methods]).map((m) => m.toUpperCase()));
    this.routes.push({ pattern, methods: set, segments, wildcard, options, handler, rank });
    this.routes.sort((a, b) => b.rank - a.rank);
    return this;
  }

  get(pattern: string, options: RouteOptions, handler: Handler): this {
    return this.add(['GET', 'HEAD'], pattern, options, handler);
  }
  post(pattern: string, options: RouteOptions, handler: Handler): this {
    return this.add('POST', pattern, options, handler);
  }
  put(pattern: string, options: RouteOptions, handler: Handler): this {
    return this.add('PUT', pattern, options, handler);
  }
  patch(pattern: string, options: RouteOptions, handler: Handler): this {
    return this.add('PATCH', pattern, options, handler);
  }
  delete(pattern: string, options: RouteOptions, handler: Handler): this {
    return this.add('DELETE', pattern, options, handler);
  }

  /** Every route as registered: for audits (a test checks each one enforces its access rule). */
  list(): { methods: string[]; pattern: string; access: Access; changes: string[] }[] {
    return this.routes.map((r) => {
      const methods = r.methods === '*' ? ['*'] : [...r.methods];
      return {
        methods,
        pattern: r.pattern,
        access: r.options.access,
        /** The methods whose calls change something ('*' for a route answering every method). */
        changes: methods.filter((m) => m === '*' || routeChanges(r.options, m)),
      };
    });
  }

  /** The largest body any route accepts: the stream starts with this and each route narrows it. */
  maxBodyLimit(defaultLimit: number): number {
    return this.routes.reduce((max, r) => Math.max(max, r.options.bodyLimit ?? defaultLimit), defaultLimit);
  }

  match(method: string, rawPath: string): Match {
    const parts = split(rawPath);
    const allowed = new Set<string>();
    for (const route of this.routes) {
      const params = matchSegments(route, parts);
      if (!params) continue;
      if (route.methods === '*' || route.methods.has(method)) return { kind: 'found', route, params };
      route.methods.forEach((m) => allowed.add(m));
    }
    return allowed.size > 0 ? { kind: 'method_not_allowed', allowed: [...allowed] } : { kind: 'none' };
  }
}

function split(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

function matchSegments(route: Route, parts: string[]): Record<string, string> | null {
  const { segments, wildcard } = route;
  if (wildcard ? parts.length < segments.length : parts.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i] as string;
    const part = parts[i] as string;
    if (seg.startsWith(':')) params[seg.slice(1)] = part;
    else if (seg !== part) return null;
  }
  if (wildcard) params['*'] = parts.slice(segments.length).join('/');
  return params;
}
