import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, test } from 'node:test';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { innProvider } from '../../support/inn/provider.js';
import { startServer, type TestServer } from '../../support/server.js';
import { AUTH, DAV_PASS, DAV_USER, addPosted, davUrl } from '../webdav/support.js';
import type { StreamsHistoryResponse, StreamsResponse } from '../../../appliance/streams/streams.wire.js';
import { film } from '../../support/media/film.js';
import { waitUntil } from '../../support/wait.js';

// Real reads over the real server's /webdav, from a real INN, seen through GET /api/streams and ended by DELETE.
let inn: InnServer;
let srv: TestServer;
let path: string;
let adminKey: string;
const SIZE = 16 * 1024 * 1024;

before(async () => {
  inn = await ensureInn();
  const posted = await inn.postFile('Stream (2024).mkv', film(SIZE), { articleSize: 512_000 });
  srv = await startServer({
    config: {
      auth: { login_required: true },
      webdav: { user: DAV_USER, password: DAV_PASS },
      providers: [innProvider(inn)],
    },
  });
  [path] = (await addPosted(srv, 'movies', 'Stream.2024', [posted])) as [string];
  const reg = await fetch(`${srv.baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'correct horse' }),
  });
  adminKey = ((await reg.json()) as { data: { user: { api_key: string } } }).data.user.api_key;
});
after(() => srv?.stop());

async function apiGet<T>(p: string): Promise<T> {
  const res = await fetch(srv.baseUrl + p, { headers: { 'x-api-key': adminKey } });
  assert.equal(res.status, 200);
  return ((await res.json()) as { data: T }).data;
}

/** A GET that reads its first chunk and then stops reading (the server keeps the stream open). */
function openRead(headers: Record<string, string>): Promise<{ res: http.IncomingMessage; req: http.ClientRequest }> {
  return new Promise((resolve, reject) => {
    const req = http.get(davUrl(srv, path), { headers: { Authorization: AUTH, ...headers } }, (res) => {
      res.once('data', () => {
        res.pause();
        resolve({ res, req });
      });
    });
    req.on('error', reject);
  });
}

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  return waitUntil(what, probe, { everyMs: 50 });
}

test('a WebDAV read in progress is listed as a player with its client; an admin DELETE ends it', async () => {
  const { res, req } = await openRead({ 'User-Agent': 'VLC/3.0.20 LibVLC/3.0.20' });
  const { streams } = await apiGet<StreamsResponse>('/api/streams');
  const s = streams.find((x) => x.path === path);
  assert.ok(s, 'the open read is listed');
  assert.equal(s.front, 'webdav');
  assert.equal(s.reader_class, 'player');
  assert.equal(s.client.user_agent, 'VLC/3.0.20 LibVLC/3.0.20');
  assert.equal(s.client.address, '127.0.0.1');
  assert.ok(s.ttfb_ms !== null && s.ttfb_ms >= 0);

  const closed = new Promise<void>((resolve) => res.on('close', () => resolve()));
  req.on('error', () => undefined); // the cut connection
  const del = await fetch(`${srv.baseUrl}/api/streams/${s.id}`, {
    method: 'DELETE',
    headers: { 'x-api-key': adminKey },
  });
  assert.equal(del.status, 200);
  res.resume();
  await closed;
  assert.ok(res.complete === false, 'the body was cut short');
  const ended = await until('the ended stream in history', async () => {
    const h = await apiGet<StreamsHistoryResponse>('/api/streams/history');
    return h.streams.find((x) => x.id === s.id);
  });
  assert.equal(ended.reason, 'ended');
  assert.ok(!(await apiGet<StreamsResponse>('/api/streams')).streams.some((x) => x.id === s.id));
  const again = await fetch(`${srv.baseUrl}/api/streams/${s.id}`, {
    method: 'DELETE',
    headers: { 'x-api-key': adminKey },
  });
  assert.equal(again.status, 404);
});

test('an ffprobe tail read is a scanner, and a read to the end moves to history as done', async () => {
  const res = await fetch(davUrl(srv, path), {
    headers: { Authorization: AUTH, Range: `bytes=${SIZE - 65_536}-`, 'User-Agent': 'Lavf/60.16.100 ffprobe' },
  });
  assert.equal(res.status, 206);
  await res.arrayBuffer();
  const ended = await until('the tail read in history', async () => {
    const h = await apiGet<StreamsHistoryResponse>('/api/streams/history');
    return h.streams.find((x) => x.client.user_agent?.includes('ffprobe'));
  });
  assert.equal(ended.reader_class, 'scanner');
  assert.equal(ended.reason, 'done');
  assert.equal(ended.bytes_served, 65_536);
  const { bytes_by_class } = await apiGet<StreamsResponse>('/api/streams');
  assert.ok((bytes_by_class[0]?.bytes.scanner ?? 0) >= 65_536);
});
