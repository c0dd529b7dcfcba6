import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { SpoolEvents } from '../../../appliance/events/index.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { startServer, type TestServer } from '../../support/server.js';
import { removeMountPoint, tempMountPoint } from '../../support/fuse/mount-point.js';
import { innProvider } from '../../support/inn/provider.js';
import { addPosted, davUrl } from '../webdav/support.js';
import { film } from '../../support/media/film.js';
import { waitUntil } from '../../support/wait.js';

// Both fronts read through one handle: a WebDAV GET and a read through the real mount each announce the stream on
// the app's bus, with who reads (address and User-Agent; the reading process's pid) and the bytes served.
let inn: InnServer;
let srv: TestServer;
let mnt: string;
let path: string;
const file = film(900_123);
type Seen = { opened: SpoolEvents['stream.opened'][]; closed: SpoolEvents['stream.closed'][] };
const seen: Seen = { opened: [], closed: [] };

before(async () => {
  inn = await ensureInn();
  mnt = tempMountPoint('spool-mnt-streams-');
  srv = await startServer({
    config: { auth: { login_required: false }, mount_path: mnt, providers: [innProvider(inn, { max_connections: 2 })] },
  });
  const posted = await inn.postFile('film.mkv', file, { articleSize: 200_000 });
  [path] = (await addPosted(srv, 'movies', 'Film', [posted])) as [string];
  srv.app().events.on('stream.opened', (e) => seen.opened.push(e));
  srv.app().events.on('stream.closed', (e) => seen.closed.push(e));
  const started = await fetch(`${srv.baseUrl}/api/rclone/mount/start`, { method: 'POST' });
  assert.equal(started.status, 200, await started.text());
});
after(async () => {
  await srv?.stop();
  await removeMountPoint(mnt);
});

const closedOf = (id: string) =>
  waitUntil(`stream_closed of ${id}`, () => seen.closed.find((c) => c.stream_id === id), { everyMs: 10 });

test('a WebDAV range GET: opened with the client address, user agent and first byte; closed with the bytes sent', async () => {
  const res = await fetch(davUrl(srv, path), {
    headers: { Range: 'bytes=1000-300999', 'User-Agent': 'TestPlayer/1.0' },
  });
  assert.equal(res.status, 206);
  assert.equal((await res.arrayBuffer()).byteLength, 300_000);
  const opened = seen.opened.find((o) => o.via === 'webdav');
  assert.ok(opened);
  assert.deepEqual(
    { ...opened, stream_id: '' },
    {
      stream_id: '',
      path,
      via: 'webdav',
      offset: 1000,
      size: file.length,
      client: { address: '127.0.0.1', user_agent: 'TestPlayer/1.0' },
    },
  );
  const closed = await closedOf(opened.stream_id);
  assert.equal(closed?.bytes_sent, 300_000);
  assert.equal(closed?.position, 301_000);
  assert.equal(closed?.reason, 'done');
  assert.equal(typeof closed?.ttfb_ms, 'number');
});

test('a read through the mount: opened with the reading process pid; closed on release with every byte', async () => {
  const dd = spawn('dd', [`if=${join(mnt, path)}`, 'of=/dev/null', 'bs=65536'], { stdio: 'ignore' });
  const code = await new Promise((r) => dd.on('exit', r));
  assert.equal(code, 0);
  const opened = seen.opened.find((o) => o.via === 'fuse');
  assert.ok(opened, 'a FUSE stream was announced');
  assert.equal(opened.path, path);
  assert.equal(opened.client.pid, dd.pid);
  const closed = await closedOf(opened.stream_id);
  assert.equal(closed?.bytes_sent, file.length);
  assert.equal(closed?.reason, 'done');
});
