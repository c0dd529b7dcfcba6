/**
 * Two real Spool processes on one real PostgreSQL (docs/streaming.md, "Several nodes"): a WebDAV read held open on
 * node A is listed by node B's GET /api/streams, under node A's id, and leaves B's list once it closes.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, test } from 'node:test';
import type { ChildServer } from '../../support/child-server.js';
import { buildNzb } from '../../support/inn/poster.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';
import type { StreamInfo, StreamsResponse } from '../../../appliance/streams/streams.wire.js';
import { api, eventually, registerAdmin, sabAddFileNzo, startNode, waitForItem } from './cluster.support.js';
import { film } from '../../support/media/film.js';

let server: PostgresServer;
let inn: InnServer;
let a: ChildServer;
let b: ChildServer;
let apiKey: string;
let path: string;

before(async () => {
  [server, inn] = await Promise.all([startPostgres(), ensureInn()]);
  const url = await server.createDatabase();
  a = await startNode(inn, url, { via: 'config' });
  b = await startNode(inn, url, { via: 'env' });
  apiKey = await registerAdmin(a);
  const posted = await inn.postFile('Shared.Stream.2024.mkv', film(16 * 1024 * 1024), { articleSize: 512_000 });
  const { id } = await sabAddFileNzo(a, apiKey, 'Shared.Stream.2024.nzb', buildNzb([posted], inn.group, 'x <x@y.z>'));
  const done = await waitForItem(a, apiKey, id);
  assert.equal(done.status, 'completed', done.error_message ?? '');
  path = `${done.target_path}/Shared.Stream.2024.mkv`;
});
after(async () => {
  for (const n of [a, b]) {
    await n?.stop();
    n?.removeDataDir();
  }
  await server?.stop();
});

const streamsOf = async (node: ChildServer) =>
  (await api<StreamsResponse>(node.baseUrl, '/api/streams', { headers: { 'x-api-key': apiKey } })).body.data!.streams;

/** A WebDAV GET on `node` that reads its first chunk and then stops reading (the stream stays open). */
function openRead(node: ChildServer): Promise<{ res: http.IncomingMessage; req: http.ClientRequest }> {
  const url = `${node.baseUrl}/webdav${path.split('/').map(encodeURIComponent).join('/')}`;
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { 'x-api-key': apiKey } }, (res) => {
      res.once('data', () => {
        res.pause();
        resolve({ res, req });
      });
    });
    req.on('error', reject);
  });
}

test("a read open on node A is in node B's Streams view with A's id, and leaves it when it closes", async () => {
  const { req } = await openRead(a);
  req.on('error', () => undefined); // destroyed below
  const own = (await streamsOf(a)).find((s) => s.path === path);
  assert.ok(own, 'A lists its own read');
  assert.ok(own.node, "A's streams carry its node id");
  assert.match(own.id, /^\d+$/, "A's own ids stay as they are");

  const seen = await eventually('the stream of A on B', async () =>
    (await streamsOf(b)).find((s: StreamInfo) => s.path === path),
  );
  assert.equal(seen.node, own.node);
  assert.equal(seen.id, `${own.node}:${own.id}`);
  assert.equal(seen.front, 'webdav');

  const del = await api<unknown>(b.baseUrl, `/api/streams/${encodeURIComponent(seen.id)}`, {
    method: 'DELETE',
    headers: { 'x-api-key': apiKey },
  });
  assert.equal(del.status, 400);
  assert.match(JSON.stringify(del.body), new RegExp(`served by node ${own.node}`));

  req.destroy();
  await eventually('the closed stream gone from B', async () =>
    (await streamsOf(b)).some((s) => s.path === path) ? undefined : true,
  );
  assert.ok(!(await streamsOf(a)).some((s) => s.path === path));
});
