/**
 * Fake Plex, Jellyfin and Emby servers for tests: the endpoints Spool calls, answering as their published API docs
 * say (docs/mediaservers.md "The fakes" cites each), and a journal of every call. `mode` makes one misbehave:
 * answer 401, hold every request open, or refuse connections (stopped).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitUntil } from '../wait.js';

export type FakeMediaKind = 'plex' | 'jellyfin' | 'emby';
export type FakeMediaMode = 'ok' | 'unauthorized' | 'hang';

export interface JournalEntry {
  method: string;
  /** Path without the query (and without Emby's /emby base). */
  path: string;
  query: Record<string, string>;
  body: unknown;
  /** What the fake answered (null while it holds the request). */
  status: number | null;
}

export interface FakeMediaServer {
  kind: FakeMediaKind;
  url: string;
  token: string;
  journal: JournalEntry[];
  /** The refreshes asked for: Plex `{section, path}`; Jellyfin/Emby each `Updates[]` entry. */
  refreshes(): { folder: string; kind: string }[];
  mode: FakeMediaMode;
  waitForRefreshes(count: number): Promise<{ folder: string; kind: string }[]>;
  /** Waits (bounded) until `count` calls came in, answered or not. */
  waitForJournal(count: number): Promise<JournalEntry[]>;
  /** Stops listening (connections refused) until start() again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface FakeMediaOptions {
  kind: FakeMediaKind;
  /** Library folders: Plex sections (one per folder) or Jellyfin/Emby virtual folders. */
  libraries: string[];
  token?: string;
}

export async function startFakeMediaServer(opts: FakeMediaOptions): Promise<FakeMediaServer> {
  const token = opts.token ?? `${opts.kind}-token-1234`;
  const journal: JournalEntry[] = [];
  const held = new Set<ServerResponse>();
  let server: Server | null = null;
  let port = 0;
  const fake: FakeMediaServer = {
    kind: opts.kind,
    url: '',
    token,
    journal,
    mode: 'ok',
    refreshes: () => refreshesOf(opts.kind, journal, opts.libraries),
    async waitForRefreshes(count) {
      const enough = () => fake.refreshes().length >= count;
      await waitUntil(() => `${fake.refreshes().length} of ${count} refreshes: ${JSON.stringify(journal)}`, enough, {
        everyMs: 20,
      });
      return fake.refreshes();
    },
    async waitForJournal(count) {
      await waitUntil(
        () => `${journal.length} of ${count} calls`,
        () => journal.length >= count,
        { everyMs: 20 },
      );
      return journal;
    },
    async stop() {
      for (const res of held) res.destroy();
      held.clear();
      const s = server;
      server = null;
      if (!s) return;
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    async start() {
      server = createServer((req, res) => void handle(req, res));
      await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
      fake.url = `http://127.0.0.1:${port}`;
    },
    close: () => fake.stop(),
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://fake');
    let path = url.pathname;
    if (opts.kind === 'emby') {
      if (!path.startsWith('/emby/')) return answer(res, 404, { error: 'Emby serves its API under /emby' });
      path = path.slice('/emby'.length);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    const entry: JournalEntry = {
      method: req.method ?? 'GET',
      path,
      query: Object.fromEntries(url.searchParams),
      body,
      status: null,
    };
    journal.push(entry);
    if (fake.mode === 'hang') {
      held.add(res);
      return;
    }
    res.on('finish', () => (entry.status = res.statusCode));
    if (fake.mode === 'unauthorized' || !authorized(opts.kind, req, url, token)) return answer(res, 401, null);
    if (opts.kind === 'plex') return plex(entry.method, path, url, res, opts.libraries);
    return jellyfin(entry.method, path, body, res, opts.libraries, opts.kind);
  }

  await fake.start();
  return fake;
}

/** Plex: `X-Plex-Token` as a header or query parameter. Jellyfin: `Authorization: MediaBrowser Token="…"` or the
 * `ApiKey` query parameter (legacy headers off, as on 12.0). Emby: `X-Emby-Token` or `api_key`. */
function authorized(kind: FakeMediaKind, req: IncomingMessage, url: URL, token: string): boolean {
  if (kind === 'plex') return req.headers['x-plex-token'] === token || url.searchParams.get('X-Plex-Token') === token;
  if (kind === 'emby') return req.headers['x-emby-token'] === token || url.searchParams.get('api_key') === token;
  const auth = req.headers.authorization ?? '';
  const m = /^MediaBrowser\s+(?:.*,\s*)?Token="([^"]*)"/i.exec(auth);
  return m?.[1] === token || url.searchParams.get('ApiKey') === token;
}

function plex(method: string, path: string, _url: URL, res: ServerResponse, libraries: string[]): void {
  if (method === 'GET' && path === '/library/sections') {
    const Directory = libraries.map((folder, i) => ({
      key: String(i + 1),
      type: 'movie',
      title: `Library ${i + 1}`,
      Location: [{ id: i + 1, path: folder }],
    }));
    return answer(res, 200, { MediaContainer: { size: Directory.length, Directory } });
  }
  const refresh = /^\/library\/sections\/(\d+)\/refresh$/.exec(path);
  if (refresh && (method === 'GET' || method === 'POST')) {
    if (Number(refresh[1]) < 1 || Number(refresh[1]) > libraries.length) return answer(res, 404, null);
    return answer(res, 200, null);
  }
  answer(res, 404, null);
}

function jellyfin(
  method: string,
  path: string,
  body: unknown,
  res: ServerResponse,
  libraries: string[],
  kind: FakeMediaKind,
): void {
  if (method === 'GET' && path === '/System/Info')
    return answer(res, 200, { ServerName: `fake ${kind}`, Version: kind === 'emby' ? '4.9.1.0' : '10.11.11', Id: 'x' });
  if (method === 'GET' && path === '/Library/VirtualFolders')
    return answer(
      res,
      200,
      libraries.map((l, i) => ({ Name: `Library ${i + 1}`, Locations: [l] })),
    );
  if (method === 'POST' && path === '/Library/Media/Updated') {
    const updates = (body as { Updates?: unknown } | null)?.Updates;
    if (!Array.isArray(updates)) return answer(res, 400, { error: 'Updates is required' });
    return answer(res, 204, null);
  }
  answer(res, 404, null);
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  if (body === null) {
    res.writeHead(status).end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** The refreshes the fake took (answered 2xx). */
function refreshesOf(kind: FakeMediaKind, all: JournalEntry[], libraries: string[]) {
  const journal = all.filter((e) => e.status !== null && e.status < 300);
  if (kind === 'plex')
    return journal.flatMap((e) => {
      const m = /^\/library\/sections\/(\d+)\/refresh$/.exec(e.path);
      return m && Number(m[1]) >= 1 && Number(m[1]) <= libraries.length
        ? [{ folder: e.query.path ?? '', kind: 'refresh' }]
        : [];
    });
  // Jellyfin's library monitor acts only on paths inside a library's folders; the rest it ignores
  const held = (p: string) => libraries.some((l) => l === '/' || p === l || p.startsWith(`${l}/`));
  return journal.flatMap((e) =>
    e.method === 'POST' && e.path === '/Library/Media/Updated'
      ? ((e.body as { Updates?: { Path: string; UpdateType: string }[] })?.Updates ?? [])
          .filter((u) => held(u.Path))
          .map((u) => ({ folder: u.Path, kind: u.UpdateType }))
      : [],
  );
}
