import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DelayRelay } from '../../support/delay-relay.js';
import { removeMountPoint, tempMountPoint } from '../../support/fuse/mount-point.js';
import { cancelArticles } from '../../support/inn/cancel.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import {
  adminApiKey,
  api,
  davGet,
  davList,
  innProvider,
  startImportServer,
  upload,
  waitForItem,
  type TestServer,
} from '../import/support.js';
import { postRelease, type Release } from './support.js';
import { waitUntil } from '../../support/wait.js';

// PAR2 repair at import (docs/import.md "Repair at import"): a release posted with Debian's par2 to the real INN,
// articles cancelled BEFORE the import. Its PAR2 set covers them: the job is written, SABnzbd's history shows
// `Repairing` while the slices are rebuilt (the arrs wait), then `Completed`, and the file reads byte-exact. Too
// much damage: the import fails with the probe's finding and PAR2's reason, as an incomplete release always did.
// The provider is reached through a relay adding a round trip, so the repair lasts long enough to be seen.
let inn: InnServer;
let relay: DelayRelay;
let srv: TestServer;
let key: string;
let mnt: string;

before(async () => {
  inn = await ensureInn();
  relay = new DelayRelay({ host: inn.host, port: inn.port }, 0);
  await relay.start();
  // SABnzbd's history says Completed once the job reads where the arr looks: on the mount
  mnt = tempMountPoint('spool-par2-import-mnt-');
  srv = await startImportServer(inn, {
    providers: [innProvider(inn, { host: '127.0.0.1', port: relay.port })],
    mount_path: mnt,
    sabnzbd: { enabled: true },
    health: { enabled: true, auto_repair_enabled: false, check_interval_seconds: 86_400, max_retries: 0 },
  });
  key = await adminApiKey(srv);
  const started = await api(srv.baseUrl, '/api/rclone/mount/start', { method: 'POST' });
  assert.equal(started.status, 200, JSON.stringify(started.body));
});
after(async () => {
  await srv?.stop();
  await relay?.stop();
  await removeMountPoint(mnt);
});

interface Slot {
  name: string;
  status: string;
  fail_message: string;
}

async function historySlot(job: string): Promise<Slot | undefined> {
  const res = await fetch(`${srv.baseUrl}/sabnzbd/api?mode=history&output=json&apikey=${key}`);
  const body = (await res.json()) as { history: { slots: Slot[] } };
  return body.history.slots.find((s) => s.name.startsWith(job));
}

/** Uploads the release; polls SABnzbd's history for the job, recording every status it showed, until it ends. */
async function importWatchingHistory(release: Release, job: string) {
  const up = await upload(srv.baseUrl, `${job}.nzb`, release.nzbXml, { category: 'movies' });
  assert.equal(up.status, 200, JSON.stringify(up.body));
  const seen: string[] = [];
  await waitUntil(
    () => `history of ${job} to end: ${seen.join(' -> ')}`,
    async () => {
      const slot = await historySlot(job);
      if (slot && seen.at(-1) !== slot.status) seen.push(slot.status);
      return slot?.status === 'Completed' || slot?.status === 'Failed';
    },
    { everyMs: 20 },
  );
  const item = await waitForItem(srv.baseUrl, up.body.data!.id);
  return { item, seen, slot: (await historySlot(job))! };
}

test('articles missing at import that PAR2 covers: Repairing in the history, then Completed, read byte-exact', async () => {
  const release = await postRelease(inn, 'Import.Fix.2022.mkv', 400_000, 10);
  assert.ok(release.recoverySlices >= 8, `recovery slices: ${release.recoverySlices}`);
  // Two articles of the middle (8 slices of 5,000 bytes) gone before the import.
  cancelArticles(inn, [release.media.messageIds[4]!, release.media.messageIds[11]!]);
  relay.rttMs = 30;
  const { item, seen } = await importWatchingHistory(release, 'Import.Fix.2022');
  relay.rttMs = 0;
  assert.equal(item.status, 'completed', item.error_message ?? '');
  assert.deepEqual(seen, ['Repairing', 'Completed'], 'the arr saw Repairing, then Completed');
  assert.deepEqual(await davList(srv.baseUrl, item.target_path!), ['Import.Fix.2022.mkv']);
  const dav = await davGet(srv.baseUrl, `${item.target_path}/Import.Fix.2022.mkv`);
  assert.equal(dav.status, 200);
  assert.ok(dav.body.equals(release.bytes), 'WebDAV reads the repaired file byte-exact');
});

test('more damage than the PAR2 set covers: the import fails with the reason, as before', async () => {
  const release = await postRelease(inn, 'Import.Broken.2023.mkv', 400_000, 5);
  const ids = release.media.messageIds;
  // Three articles (12 slices) gone; the set has 4 recovery slices.
  assert.ok(release.recoverySlices < 12, `recovery slices: ${release.recoverySlices}`);
  cancelArticles(inn, [ids[2]!, ids[7]!, ids[13]!]);
  const { item, slot } = await importWatchingHistory(release, 'Import.Broken.2023');
  assert.equal(item.status, 'failed');
  assert.match(
    item.error_message ?? '',
    /^Missing articles on every provider in 1 file\(s\): Import\.Broken\.2023\.mkv: 3 of/,
  );
  assert.match(
    item.error_message ?? '',
    /PAR2 repair not possible: PAR2: cannot repair: \d+ slices missing, 4 recovery slices found, 0 lost with their articles$/,
  );
  assert.equal(slot.status, 'Failed');
  assert.match(slot.fail_message, /PAR2 repair not possible/);
  assert.equal((await davGet(srv.baseUrl, `${item.target_path}/Import.Broken.2023.mkv`)).status, 404, 'no job left');
});
