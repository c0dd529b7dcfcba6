/**
 * Who may change the WebDAV tree. The `webdav.user`/`webdav.password` pair is for media players: it reads (GET,
 * HEAD, PROPFIND, OPTIONS) and nothing else. Deleting, moving, copying, uploading sidecars, creating folders,
 * changing properties and locking need a console user (Basic with a Spool user, or the console's session).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { api, startServer, type TestServer } from '../../support/server.js';
import { AUTH as PAIR, DAV_PASS, DAV_USER, davUrl } from './support.js';

let srv: TestServer;
let USER = '';

before(async () => {
  srv = await startServer({
    config: { auth: { login_required: true }, webdav: { user: DAV_USER, password: DAV_PASS } },
  });
  await api(srv.baseUrl, '/api/auth/register', {
    method: 'POST',
    json: { username: 'owner', password: 'owner-password' },
  });
  USER = 'Basic ' + Buffer.from('owner:owner-password').toString('base64');
  const layout = { size: 10, segments: [{ messageId: 'a@b', start: 0, end: 10 }] };
  for (const job of ['One', 'Two'])
    await srv.app().streaming.vfs.addJob({
      category: 'movies',
      jobName: job,
      files: [{ name: `${job}.mkv`, size: 10, layout, sourceNzbPath: `/nzb/${job}.nzb` }],
    });
});
after(() => srv?.stop());

const dav = (method: string, path: string, auth: string, headers: Record<string, string> = {}, body?: string) =>
  fetch(davUrl(srv, path), { method, headers: { Authorization: auth, ...headers }, body });

test('the webdav.user pair reads the tree', async () => {
  const list = await dav('PROPFIND', '/complete/movies/', PAIR, { Depth: '1' });
  assert.equal(list.status, 207);
  assert.match(await list.text(), /movies\/One\//);
  assert.equal((await dav('OPTIONS', '/', PAIR)).status, 200);
});

test('the webdav.user pair cannot delete, move, copy, upload, create folders, change properties or lock', async () => {
  const dest = { Destination: davUrl(srv, '/complete/movies/Moved') };
  const attempts: [string, string, Record<string, string>, string?][] = [
    ['DELETE', '/complete/movies/One', {}],
    ['MOVE', '/complete/movies/One', dest],
    ['COPY', '/complete/movies/One', dest],
    ['PUT', '/complete/movies/One/One.en.srt', {}, 'subtitle'],
    ['MKCOL', '/complete/new', {}],
    [
      'PROPPATCH',
      '/complete/movies/One',
      { 'Content-Type': 'application/xml' },
      '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x xmlns="urn:x">1</x></D:prop></D:set></D:propertyupdate>',
    ],
    [
      'LOCK',
      '/complete/movies/One',
      { 'Content-Type': 'application/xml' },
      '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>',
    ],
  ];
  const got = [];
  for (const [method, path, headers, body] of attempts) {
    const res = await dav(method, path, PAIR, headers, body);
    got.push(`${method} ${res.status} ${(await res.text()).trim()}`);
  }
  assert.deepEqual(
    got,
    attempts.map(
      ([m]) => `${m} 403 The WebDAV account (webdav.user) can only read; sign in as a Spool user to change files`,
    ),
  );
  assert.equal((await dav('PROPFIND', '/complete/movies/One', PAIR, { Depth: '0' })).status, 207, 'still there');
});

test('a console user deletes and moves over WebDAV', async () => {
  const moved = await dav('MOVE', '/complete/movies/Two', USER, { Destination: davUrl(srv, '/complete/movies/Three') });
  assert.equal(moved.status, 201);
  assert.equal((await dav('DELETE', '/complete/movies/Three', USER)).status, 204);
  assert.equal((await dav('PROPFIND', '/complete/movies/Three', USER, { Depth: '0' })).status, 404);
});
