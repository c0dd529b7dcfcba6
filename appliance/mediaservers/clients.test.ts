import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startFakeMediaServer, type FakeMediaServer } from '../../tests/support/fake-mediaserver/server.js';
import { clientFor } from './mediaservers.service.js';
import { MediaServerError } from './media-server.client.js';

// The clients against fakes that answer as Plex's, Jellyfin's and Emby's API docs say (docs/mediaservers.md).
const fakes: Record<'plex' | 'jellyfin' | 'emby', FakeMediaServer> = {} as never;
before(async () => {
  for (const kind of ['plex', 'jellyfin', 'emby'] as const)
    fakes[kind] = await startFakeMediaServer({ kind, libraries: ['/media/movies', '/media/tv'] });
});
after(async () => {
  for (const f of Object.values(fakes)) await f.close();
});

const settings = (f: FakeMediaServer, token = f.token) => ({ name: f.kind, kind: f.kind, url: f.url, token });
/** A signal that never fires: a test waits for the fake's answer, however busy the machine (tests/support/wait.ts). */
const signal = () => new AbortController().signal;

test('Plex: the test lists library locations; a refresh goes to the section holding the folder, with path=', async () => {
  const plex = fakes.plex;
  const client = clientFor(settings(plex));
  const t = await client.test(signal());
  assert.deepEqual(t.locations, ['/media/movies', '/media/tv']);
  await client.refresh([{ folder: '/media/tv/Show/Season 1', kind: 'Modified' }], signal());
  const call = plex.journal.at(-1)!;
  assert.equal(call.path, '/library/sections/2/refresh');
  assert.equal(call.query.path, '/media/tv/Show/Season 1');
  const before = plex.refreshes().length;
  await client.refresh([{ folder: '/other/x', kind: 'Modified' }], signal());
  assert.equal(plex.refreshes().length, before, 'a folder no library holds is not refreshed (never a whole library)');
});

test('Jellyfin: one POST /Library/Media/Updated with every folder, the MediaBrowser token form', async () => {
  const jf = fakes.jellyfin;
  const client = clientFor(settings(jf));
  assert.match((await client.test(signal())).message, /fake jellyfin \(Jellyfin 10\.11\.11\)/);
  await client.refresh(
    [
      { folder: '/media/movies/A', kind: 'Created' },
      { folder: '/media/movies/B', kind: 'Deleted' },
    ],
    signal(),
  );
  assert.deepEqual(jf.refreshes().slice(-2), [
    { folder: '/media/movies/A', kind: 'Created' },
    { folder: '/media/movies/B', kind: 'Deleted' },
  ]);
});

test('Emby: the same call under /emby with X-Emby-Token', async () => {
  const client = clientFor(settings(fakes.emby));
  await client.refresh([{ folder: '/media/tv/S', kind: 'Modified' }], signal());
  assert.deepEqual(fakes.emby.refreshes().at(-1), { folder: '/media/tv/S', kind: 'Modified' });
});

test('a wrong token, a server that is down and one that hangs each fail with a clear error', async () => {
  const jf = fakes.jellyfin;
  const wrong = clientFor(settings(jf, 'nope'));
  await assert.rejects(wrong.refresh([{ folder: '/media/x', kind: 'Modified' }], signal()), (e: unknown) => {
    return e instanceof MediaServerError && e.status === 401 && /check the token/.test(e.message);
  });
  const down = await startFakeMediaServer({ kind: 'jellyfin', libraries: [] });
  await down.stop();
  await assert.rejects(
    clientFor(settings(down)).refresh([{ folder: '/x', kind: 'Modified' }], signal()),
    /cannot be reached/,
  );
  const hung = await startFakeMediaServer({ kind: 'plex', libraries: ['/m'] });
  hung.mode = 'hang';
  const controller = new AbortController();
  const pending = clientFor(settings(hung)).refresh([{ folder: '/m/x', kind: 'Modified' }], controller.signal);
  await hung.waitForJournal(1);
  controller.abort();
  await assert.rejects(pending, /did not answer in time/);
  await hung.close();
});
