/**
 * Two real Spool processes on one PostgreSQL, for what issue 25 shares besides the stores: the configuration
 * (appliance/config/config-pg.store.ts, wired by app/pg-slots/config.ts) and the live events a console sees
 * (app/cluster/live-relay.ts, wired by app/create-app.ts).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import WebSocket from 'ws';
import type { LiveMessage } from '../../../appliance/events/live.wire.js';
import { startChildServer, type ChildServer } from '../../support/child-server.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';
import { api } from '../../support/server.js';
import { waitUntil } from '../../support/wait.js';

let pg: PostgresServer;
const nodes: ChildServer[] = [];
before(async () => (pg = await startPostgres()));
after(async () => {
  for (const n of nodes) {
    await n.stop().catch(() => undefined);
    n.removeDataDir();
  }
  await pg?.stop();
});

const NZB = `<?xml version="1.0" encoding="utf-8"?>
<nzb xmlns="http://www.newzbin.com/DTD/2003/nzb"><file poster="p" date="1700000000" subject="&quot;Film.2024.mkv&quot; yEnc (1/1)">
<groups><group>alt.binaries.test</group></groups>
<segments><segment bytes="1000" number="1">part1@cluster.test</segment></segments></file></nzb>`;

async function until<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  return waitUntil(what, probe);
}

test('a setting saved on one node reaches the other; a console on B sees a queue item added on A, once', async () => {
  const url = await pg.createDatabase();
  const start = (config: Record<string, unknown>) => startChildServer({ config, env: { SPOOL_DATABASE_URL: url } });
  const a = await start({
    auth: { login_required: true },
    streaming: { max_download_workers: 13 },
    mount_path: '/mnt/a',
  });
  nodes.push(a);
  const b = await start({ auth: { login_required: true }, mount_path: '/mnt/b' });
  nodes.push(b);

  const reg = await api<{ user: { api_key: string } }>(a.baseUrl, '/api/auth/register', {
    method: 'POST',
    json: { username: 'admin', password: 'admin-password' },
  });
  const key = reg.body.data?.user.api_key;
  assert.ok(key, JSON.stringify(reg.body));
  const headers = { 'x-api-key': key };
  type Cfg = {
    streaming: { max_download_workers: number };
    health: { check_interval_seconds: number };
    mount_path: string;
  };
  const configOf = async (n: ChildServer) => (await api<Cfg>(n.baseUrl, '/api/config', { headers })).body.data!;

  // B started on A's document, its mount point its own.
  const atStart = await configOf(b);
  assert.equal(atStart.streaming.max_download_workers, 13);
  assert.equal(atStart.mount_path, '/mnt/b');

  const saved = await api(a.baseUrl, '/api/config/health', {
    method: 'PATCH',
    headers,
    json: { section: 'health', config: { check_interval_seconds: 77 } },
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  await until(
    async () => ((await configOf(b)).health.check_interval_seconds === 77 ? true : undefined),
    'the save at B',
  );

  // A console on B, and one on A.
  const watch = async (n: ChildServer) => {
    const ws = new WebSocket(`${n.baseUrl.replace('http', 'ws')}/api/live`, { headers });
    const got: LiveMessage[] = [];
    ws.on('message', (data) => got.push(JSON.parse(String(data)) as LiveMessage));
    await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
    await until(async () => (got.length > 0 ? true : undefined), 'hello');
    return { ws, got };
  };
  const [onA, onB] = [await watch(a), await watch(b)];
  const form = new FormData();
  form.append('file', new Blob([NZB], { type: 'application/x-nzb' }), 'Film.2024.nzb');
  const added = await api<{ id: number }>(a.baseUrl, '/api/queue/upload', { method: 'POST', headers, body: form });
  assert.equal(added.status, 200, JSON.stringify(added.body));
  const id = added.body.data!.id;
  const addedOf = (got: LiveMessage[]) =>
    got.filter((m) => m.type === 'event' && m.topic === 'queue.item.added' && m.data.id === id);
  await until(async () => (addedOf(onB.got).length > 0 ? true : undefined), 'queue.item.added at B');
  await new Promise((r) => setTimeout(r, 1000)); // a duplicate would come within this
  assert.equal(addedOf(onB.got).length, 1);
  assert.equal(addedOf(onA.got).length, 1);
  onA.ws.close();
  onB.ws.close();
});
