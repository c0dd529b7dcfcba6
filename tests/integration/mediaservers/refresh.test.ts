import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { MediaServerRefreshJson, MediaServerTestJson } from '../../../appliance/mediaservers/mediaservers.wire.js';
import type { NoticeJson } from '../../../appliance/notify/notify.wire.js';
import { startFakeMediaServer, type FakeMediaServer } from '../../support/fake-mediaserver/server.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { startReceiver } from '../../support/notify-receiver.js';
import { api, startImportServer, upload, waitForItem, type TestServer } from '../import/support.js';
import { film } from '../../support/media/film.js';
import { waitUntil } from '../../support/wait.js';

// Media servers told of library changes (docs/mediaservers.md): a real Spool importing from the real INN, a fake
// Plex and a fake Jellyfin answering as their API docs say, each seeing Spool's mount under its own path.
let inn: InnServer;
let srv: TestServer;
let plex: FakeMediaServer;
let jellyfin: FakeMediaServer;
let hook: Awaited<ReturnType<typeof startReceiver>>;

const MOUNT = '/mnt/spool';

before(async () => {
  inn = await ensureInn();
  plex = await startFakeMediaServer({ kind: 'plex', libraries: ['/media/spool/complete/movies'] });
  jellyfin = await startFakeMediaServer({ kind: 'jellyfin', libraries: ['/jf/spool/complete/movies'] });
  hook = await startReceiver([200]);
  srv = await startImportServer(inn, {
    mount_path: MOUNT,
    notifications: {
      enabled: true,
      min_interval_seconds: 0,
      targets: [{ name: 'hook', type: 'webhook', url: hook.url('/hook'), events: ['media_server_failed'] }],
    },
    media_servers: {
      enabled: true,
      debounce_seconds: 0,
      timeout_seconds: 2,
      servers: [server('plex', plex, '/media/spool'), server('jellyfin', jellyfin, '/jf/spool')],
    },
  });
});
after(async () => {
  await srv?.stop();
  await Promise.all([plex?.close(), jellyfin?.close(), hook?.close()]);
});

function server(name: string, fake: FakeMediaServer, seenAs: string) {
  return {
    name,
    kind: fake.kind,
    url: fake.url,
    token: fake.token,
    enabled: true,
    refresh_imports: true,
    path_mappings: [{ from: MOUNT, to: seenAs }],
  };
}

async function importFilm(name: string): Promise<string> {
  const posted = await inn.postFile(`${name}.mkv`, film(60_000), { articleSize: 20_000 });
  const up = await upload(srv.baseUrl, `${name}.nzb`, posted.nzbXml, { category: 'movies' });
  assert.equal(up.status, 200, JSON.stringify(up.body));
  const item = await waitForItem(srv.baseUrl, up.body.data!.id);
  assert.equal(item.status, 'completed', item.error_message ?? '');
  return item.target_path!;
}

test('the Test button reaches each server with its saved token and lists its libraries', async () => {
  const res = await api<MediaServerTestJson>(srv.baseUrl, '/api/mediaservers/test', {
    method: 'POST',
    json: { name: 'plex', kind: 'plex', url: plex.url, token: '' },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(res.body.data!.locations, ['/media/spool/complete/movies']);
  const wrong = await api<MediaServerTestJson>(srv.baseUrl, '/api/mediaservers/test', {
    method: 'POST',
    json: { kind: 'jellyfin', url: jellyfin.url, token: 'wrong' },
  });
  assert.equal(wrong.body.data!.ok, false);
  assert.match(wrong.body.data!.message, /HTTP 401: check the token/);
  const config = await api<{ media_servers: { servers: Record<string, unknown>[] } }>(srv.baseUrl, '/api/config');
  for (const s of config.body.data!.media_servers.servers) {
    assert.equal(s.token, undefined, 'the token is write-only');
    assert.equal(s.token_set, true);
  }
});

test('an import no arr takes: each server refreshes the job folder, as it sees it', async () => {
  const job = await importFilm('Told.Film.2024');
  const [p] = await plex.waitForRefreshes(1);
  assert.deepEqual(p, { folder: `/media/spool${job}`, kind: 'refresh' });
  const [j] = await jellyfin.waitForRefreshes(1);
  assert.deepEqual(j, { folder: `/jf/spool${job}`, kind: 'Created' });
  const plexRefresh = plex.journal.find((e) => e.path.endsWith('/refresh'))!;
  assert.equal(plexRefresh.path, '/library/sections/1/refresh', 'the section whose location holds the folder');
});

test('a delete: the folder it left is refreshed; a server down, refusing the token or hanging delays nothing and is reported once', async () => {
  const job = await importFilm('Gone.Film.2024');
  await plex.waitForRefreshes(2);
  await jellyfin.waitForRefreshes(2);
  plex.mode = 'unauthorized';
  await jellyfin.stop();
  const del = await fetch(`${srv.baseUrl}/webdav${job}/Gone.Film.2024.mkv`, { method: 'DELETE' });
  assert.equal(del.status, 204);
  // Both fail: one notice each, naming the server and the fix.
  const notices = (await hook.waitFor(2)).map((r) => JSON.parse(r.body) as NoticeJson);
  assert.deepEqual(notices.map((n) => n.event).sort(), ['media_server_failed', 'media_server_failed']);
  assert.deepEqual(notices.map((n) => n.details.server).sort(), ['jellyfin', 'plex']);
  assert.ok(notices.some((n) => /check the token/.test(n.message)));
  assert.ok(notices.some((n) => /cannot be reached/.test(n.message)));
  // Back again: the retry (5 s later) brings the refresh of the folder the file left; no second notice.
  plex.mode = 'ok';
  await jellyfin.start();
  const after = await waitForActivity((a) => a.filter((x) => x.state === 'done' && x.attempts === 2).length >= 2);
  assert.ok(after.some((a) => a.server === 'jellyfin' && a.folders.includes(`/jf/spool${job}`)));
  assert.deepEqual(jellyfin.refreshes().at(-1), { folder: `/jf/spool${job}`, kind: 'Deleted' });
  assert.deepEqual(plex.refreshes().at(-1), { folder: `/media/spool${job}`, kind: 'refresh' });
  assert.equal(hook.got.length, 2, 'reported once per server');

  plex.mode = 'hang';
  const held = await importFilm('Held.Film.2024');
  assert.ok(held, 'an import completes while a media server holds every request');
  await jellyfin.waitForRefreshes(4);
  const hung = await waitForActivity((a) =>
    a.some((x) => x.server === 'plex' && /did not answer in time/.test(x.error ?? '')),
  );
  assert.equal(hung[0]!.state, 'retrying');
  plex.mode = 'ok';
});

async function waitForActivity(done: (a: MediaServerRefreshJson[]) => boolean): Promise<MediaServerRefreshJson[]> {
  let last: MediaServerRefreshJson[] | undefined;
  return waitUntil(
    () => `activity: ${JSON.stringify(last)}`,
    async () => {
      last = (await api<MediaServerRefreshJson[]>(srv.baseUrl, '/api/mediaservers/activity')).body.data;
      return last && done(last) ? last : undefined;
    },
  );
}
