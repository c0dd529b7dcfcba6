/**
 * Spool nodes on one PostgreSQL for the cluster tests: each node a real process (tests/support/child-server.ts) with
 * its own data dir, INN as its provider, and the shared database URL either in its config.yaml
 * (`metadata.database_url`) or in `SPOOL_DATABASE_URL`. Requests carry an administrator's API key
 * (login is on: users are what the nodes share).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import pg from 'pg';
import { startChildServer, type ChildServer } from '../../support/child-server.js';
import { innProvider } from '../../support/inn/provider.js';
import type { InnServer } from '../../support/inn/server.js';
import { api } from '../../support/server.js';
import { waitUntil } from '../../support/wait.js';

export { api };
export const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

export interface NodeOptions {
  /** Where the node learns the database: its config file or the environment (both are documented). */
  via?: 'config' | 'env';
  /** The provider entry (default: INN itself). */
  provider?: Record<string, unknown>;
  /** Reuse a data dir (a node started again, or an LMDB install after `spool migrate`). */
  dataDir?: string;
  /** `import` settings over the defaults below. */
  importSettings?: Record<string, unknown>;
}

/** The config every node of a test starts from (the config is shared once in PostgreSQL; node-local keys aside). */
export function nodeConfig(inn: InnServer, provider?: Record<string, unknown>): Record<string, unknown> {
  return {
    auth: { login_required: true, registration_enabled: true },
    providers: [provider ?? innProvider(inn)],
    import: { queue_processing_interval_seconds: 1, segment_sample_percentage: 100, max_processor_workers: 1 },
    sabnzbd: { enabled: true },
  };
}

export function startNode(inn: InnServer, databaseUrl: string | null, opts: NodeOptions = {}): Promise<ChildServer> {
  const config = nodeConfig(inn, opts.provider);
  if (opts.importSettings) config.import = { ...(config.import as object), ...opts.importSettings };
  const env: Record<string, string> = {};
  if (databaseUrl && opts.via === 'env') env.SPOOL_DATABASE_URL = databaseUrl;
  else if (databaseUrl) config.metadata = { root_path: './metadata', database_url: databaseUrl };
  return startChildServer({ config, env, dataDir: opts.dataDir });
}

/** Registers the first user (an administrator) on `node`; returns its API key. */
export async function registerAdmin(node: ChildServer, username = 'admin', password = 'admin-password') {
  const r = await api<{ user: { api_key: string } }>(node.baseUrl, '/api/auth/register', {
    method: 'POST',
    json: { username, password },
  });
  const key = r.body.data?.user.api_key;
  if (!key) throw new Error(`registering on ${node.baseUrl} answered ${r.status}: ${JSON.stringify(r.body)}`);
  return key;
}

/** SABnzbd `addfile` (what Radarr/Sonarr send); returns the queue item id behind the nzo_id (`sabAddFileNzo`: both). */
export async function sabAddFile(node: ChildServer, apiKey: string, name: string, nzbXml: string, cat = 'tv') {
  return (await sabAddFileNzo(node, apiKey, name, nzbXml, cat)).id;
}

export async function sabAddFileNzo(node: ChildServer, apiKey: string, name: string, nzbXml: string, cat = 'tv') {
  const form = new FormData();
  form.append('name', new Blob([nzbXml], { type: 'application/x-nzb' }), name);
  const res = await fetch(`${node.baseUrl}/sabnzbd/api?mode=addfile&cat=${cat}&apikey=${apiKey}&output=json`, {
    method: 'POST',
    body: form,
  });
  const body = (await res.json()) as { status: boolean; nzo_ids?: string[]; error?: string };
  const nzo = body.nzo_ids?.[0];
  if (!body.status || !nzo) throw new Error(`addfile on ${node.baseUrl}: ${res.status} ${JSON.stringify(body)}`);
  return { nzo, id: Number(/_(\d+)$/.exec(nzo)![1]) };
}

export interface QueueItem {
  id: number;
  status: string;
  target_path: string | null;
  error_message: string | null;
}

const keyed = (apiKey: string) => ({ headers: { 'x-api-key': apiKey } });

export async function queueItem(node: ChildServer, apiKey: string, id: number): Promise<QueueItem | undefined> {
  return (await api<QueueItem>(node.baseUrl, `/api/queue/${id}`, keyed(apiKey))).body.data;
}

export async function queueItems(node: ChildServer, apiKey: string): Promise<QueueItem[]> {
  const r = await api<QueueItem[]>(node.baseUrl, '/api/queue?limit=0', keyed(apiKey));
  if (!r.body.data) throw new Error(`GET /api/queue on ${node.baseUrl}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

/** Polls one node for the item until it reaches one of `done` (tests/support/wait.ts). */
export async function waitForItem(
  node: ChildServer,
  apiKey: string,
  id: number,
  done = ['completed', 'failed'],
): Promise<QueueItem> {
  let last: QueueItem | undefined;
  return waitUntil(
    () => `queue item ${id} to be ${done.join(' or ')} (still ${last?.status})`,
    async () => {
      last = await queueItem(node, apiKey, id);
      return last && done.includes(last.status) ? last : undefined;
    },
  );
}

const davUrl = (node: ChildServer, path: string) =>
  `${node.baseUrl}/webdav${path.split('/').map(encodeURIComponent).join('/')}`;

/** One WebDAV GET of a whole file. */
export async function davGet(node: ChildServer, apiKey: string, path: string) {
  const res = await fetch(davUrl(node, path), keyed(apiKey));
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
}

/** The names in a WebDAV directory (PROPFIND depth 1). */
export async function davList(node: ChildServer, apiKey: string, path: string): Promise<string[]> {
  const res = await fetch(davUrl(node, path), { method: 'PROPFIND', headers: { Depth: '1', 'x-api-key': apiKey } });
  const xml = await res.text();
  if (res.status !== 207) throw new Error(`PROPFIND ${path} on ${node.baseUrl}: ${res.status} ${xml.slice(0, 200)}`);
  const hrefs = [...xml.matchAll(/<(?:\w+:)?href>([^<]*)<\/(?:\w+:)?href>/g)].map((m) => decodeURIComponent(m[1]!));
  const self = `/webdav${path}`.replace(/\/$/, '');
  return hrefs.filter((h) => h.replace(/\/$/, '') !== self).map((h) => h.replace(/\/$/, '').split('/').pop()!);
}

/** Polls `check` until it returns a value (tests/support/wait.ts); for what another node learns by notification. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  return waitUntil(what, () => check().catch(() => undefined));
}

/**
 * The node holding the leader lease right now, asked of PostgreSQL itself: the backend that holds the advisory
 * lock `leaderLock` (PG_LOCKS.leader), its client's TCP port, and the node process that owns that socket.
 */
export async function leaderAmong(databaseUrl: string, leaderLock: number, nodes: ChildServer[]) {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const r = await c.query<{ port: number }>(
      `SELECT a.client_port AS port FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.granted AND l.classid = 0 AND l.objid = $1 AND l.objsubid = 1
          AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [leaderLock],
    );
    const port = r.rows[0]?.port;
    if (port === undefined) return undefined;
    return nodes.find((n) => n.proc.exitCode === null && n.proc.signalCode === null && ownsLocalPort(n.pid, port));
  } finally {
    await c.end();
  }
}

/** Whether process `pid` has a TCP socket bound to local `port` (its fds' socket inodes against /proc/net/tcp). */
function ownsLocalPort(pid: number, port: number): boolean {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // the fd closed meanwhile
    }
  }
  for (const table of ['tcp', 'tcp6']) {
    for (const line of readFileSync(`/proc/${pid}/net/${table}`, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10) continue;
      if (parseInt(f[1]!.split(':')[1]!, 16) === port && inodes.has(f[9]!)) return true;
    }
  }
  return false;
}
