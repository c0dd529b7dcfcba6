import { createHash } from 'node:crypto';
import { after, before } from 'node:test';
import { innProvider } from '../../support/inn/provider.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { adminApiKey, api, startServer, type StartServerOptions, type TestServer } from '../../support/server.js';
import { waitUntil, type WaitOptions } from '../../support/wait.js';

export { innProvider };

export const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** The real server with login off, INN as its provider, and the given import settings. */
export function startImportServer(
  inn: InnServer,
  extra: Record<string, unknown> = {},
  opts: StartServerOptions = {},
): Promise<TestServer> {
  return startServer({
    ...opts,
    config: {
      auth: { login_required: false },
      providers: [innProvider(inn)],
      import: { queue_processing_interval_seconds: 1, segment_sample_percentage: 100 },
      ...extra,
    },
  });
}

/**
 * The setup of a test file that imports from INN: its `before` hook starts the private INN (ensureInn) and the real
 * server importing from it (startImportServer with `extra`), its `after` hook stops the server. Call once at the top
 * of the file; read `inn` and `srv` inside tests and hooks (they exist once `before` has run).
 */
export function importServerOverInn(extra: Record<string, unknown> = {}): {
  readonly inn: InnServer;
  readonly srv: TestServer;
} {
  let inn: InnServer | undefined;
  let srv: TestServer | undefined;
  before(async () => {
    inn = await ensureInn();
    srv = await startImportServer(inn, extra);
  });
  after(() => srv?.stop());
  const started = <T>(what: T | undefined, name: string): T => {
    if (what === undefined) throw new Error(`${name} is started by the before hook: read it inside a test`);
    return what;
  };
  return {
    get inn() {
      return started(inn, 'INN');
    },
    get srv() {
      return started(srv, 'the server');
    },
  };
}

export interface QueueItem {
  id: number;
  nzb_path: string;
  target_path: string | null;
  category: string | null;
  file_size: number;
  status: string;
  retry_count: number;
  error_message: string | null;
}

/** POST /api/queue/upload with one file part (and optional fields); returns the raw envelope. */
export async function upload(
  baseUrl: string,
  filename: string,
  content: string | Buffer,
  fields: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([content]), filename);
  return api<QueueItem>(baseUrl, '/api/queue/upload', { method: 'POST', body: form });
}

/** Polls GET /api/queue/:id until the item reaches one of the `done` statuses (tests/support/wait.ts). */
export async function waitForItem(
  baseUrl: string,
  id: number,
  done = ['completed', 'failed'],
  opts: Pick<WaitOptions, 'hungAfterMs'> = {},
): Promise<QueueItem> {
  let last: unknown;
  return waitUntil(
    () => `queue item ${id} to be ${done.join(' or ')}: ${JSON.stringify(last)}`,
    async () => {
      const { body } = await api<QueueItem>(baseUrl, `/api/queue/${id}`);
      last = body;
      return body.data && done.includes(body.data.status) ? body.data : undefined;
    },
    opts,
  );
}

/** Reads a whole file with one plain WebDAV GET through the real server (login is off in these tests). */
export async function davGet(baseUrl: string, path: string): Promise<{ status: number; body: Buffer }> {
  const url = `${baseUrl}/webdav${path.split('/').map(encodeURIComponent).join('/')}`;
  const res = await fetch(url);
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
}

/** Names in a WebDAV directory (PROPFIND depth 1), without the directory itself. */
export async function davList(baseUrl: string, path: string): Promise<string[]> {
  const url = `${baseUrl}/webdav${path.split('/').map(encodeURIComponent).join('/')}`;
  const res = await fetch(url, { method: 'PROPFIND', headers: { Depth: '1' } });
  const xml = await res.text();
  if (res.status !== 207) throw new Error(`PROPFIND ${path}: ${res.status} ${xml.slice(0, 200)}`);
  const hrefs = [...xml.matchAll(/<(?:\w+:)?href>([^<]*)<\/(?:\w+:)?href>/g)].map((m) => decodeURIComponent(m[1]!));
  const self = `/webdav${path}`.replace(/\/$/, '');
  return hrefs.filter((h) => h.replace(/\/$/, '') !== self).map((h) => h.replace(/\/$/, '').split('/').pop()!);
}

export { adminApiKey, api, type TestServer };
