import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { adminApiKey, api, startServer, type TestServer } from '../../support/server.js';

// import.max_queued_items over HTTP on the real server: the queue is held full (the runner paused, as SABnzbd's
// global pause does), and every way in refuses in the shape its caller reads (docs/sabnzbd.md, "A full queue").
let srv: TestServer;
let root: string;
let apiKey = '';
let indexer: Server;
let indexerUrl = '';
let indexerHits = 0;

const NZB = (n: number) =>
  `<nzb><file subject="q${n}"><segments><segment bytes="1" number="1">q${n}@b</segment></segments></file></nzb>`;
const FULL =
  /^The Spool queue is full: 2 items are waiting or importing and the limit \(import\.max_queued_items\) is 2; try again later$/;

type Body = Record<string, unknown> & { status?: unknown; error?: string; nzo_ids?: string[] };

/** mode=addfile as Radarr/Sonarr send it: the NZB in part `name`, cat and priority in the query. */
async function addfile(n: number, output = 'json'): Promise<{ status: number; text: string }> {
  const form = new FormData();
  form.append('name', new Blob([NZB(n)], { type: 'application/x-nzb' }), `Show.S01E0${n}.nzb`);
  const res = await fetch(
    `${srv.baseUrl}/sabnzbd/api?mode=addfile&cat=tv&priority=-100&apikey=${apiKey}&output=${output}`,
    { method: 'POST', body: form },
  );
  return { status: res.status, text: await res.text() };
}

async function upload(n: number) {
  const form = new FormData();
  form.append('file', new Blob([NZB(n)]), `Upload.${n}.nzb`);
  return api<{ id: number }>(srv.baseUrl, '/api/queue/upload', { method: 'POST', body: form });
}

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'spool-queuefull-'));
  srv = await startServer({
    config: {
      auth: { login_required: false },
      mount_path: join(root, 'mnt'),
      import: { import_strategy: 'symlink', import_dir: join(root, 'downloads'), max_queued_items: 2 },
      sabnzbd: { enabled: true, categories: [{ name: 'tv', order: 1, priority: 0, dir: '' }] },
    },
  });
  apiKey = await adminApiKey(srv);
  // The queue holds what it is given: nothing is claimed while paused.
  srv.app().importer.runner.pause();
  indexer = createServer((_req, res) => {
    indexerHits++;
    res.writeHead(200, { 'content-disposition': 'attachment; filename="Fetched.nzb"' });
    res.end(NZB(9));
  });
  await new Promise<void>((r) => indexer.listen(0, '127.0.0.1', r));
  indexerUrl = `http://127.0.0.1:${(indexer.address() as AddressInfo).port}`;
});

after(async () => {
  await srv?.stop();
  indexer?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

test('a full queue: addfile/addurl answer status false with the reason, the upload QUEUE_FULL; nothing is kept', async () => {
  const first = JSON.parse((await addfile(1)).text) as Body;
  const second = JSON.parse((await addfile(2)).text) as Body;
  assert.equal(first.status, true);
  assert.equal(second.status, true);

  // What the arrs parse: HTTP 200, a root `status` that is false, the reason in `error` (no nzo_ids to take).
  const refused = await addfile(3);
  assert.equal(refused.status, 200);
  const body = JSON.parse(refused.text) as Body;
  assert.deepEqual(Object.keys(body).sort(), ['error', 'status']);
  assert.equal(body.status, false);
  assert.match(body.error ?? '', FULL);

  const xml = await addfile(3, 'xml');
  assert.equal(xml.status, 200);
  assert.match(xml.text, /<status>False<\/status>/i);
  assert.match(xml.text, /<error>The Spool queue is full: 2 items are waiting/);

  // addurl refuses before fetching anything from the indexer.
  const url = encodeURIComponent(`${indexerUrl}/get.php?id=3`);
  const res = await fetch(`${srv.baseUrl}/api?mode=addurl&name=${url}&apikey=${apiKey}&output=json`);
  const byUrl = (await res.json()) as Body;
  assert.equal(byUrl.status, false);
  assert.match(byUrl.error ?? '', FULL);
  assert.equal(indexerHits, 0);

  // The console's upload: the coded error its upload card shows.
  const up = await upload(4);
  assert.equal(up.status, 503);
  assert.equal(up.body.success, false);
  assert.equal(up.body.error?.code, 'QUEUE_FULL');
  assert.match(up.body.error?.message ?? '', FULL);

  const queue = (await fetch(`${srv.baseUrl}/sabnzbd/api?mode=queue&apikey=${apiKey}&output=json`).then((r) =>
    r.json(),
  )) as { queue: { noofslots_total: number } };
  assert.equal(queue.queue.noofslots_total, 2, 'nothing of the refused adds was queued');
  assert.equal((await srv.app().importer.queue.stats()).total_queued, 2);
});

test('once the queue drains, adds work again, and the refused ones consumed no id', async () => {
  const active = await srv.app().importer.queue.active();
  // The arr removes a finished job, as after its import: the queue has room again.
  const { queue } = (await fetch(`${srv.baseUrl}/sabnzbd/api?mode=queue&limit=0&apikey=${apiKey}&output=json`).then(
    (r) => r.json(),
  )) as { queue: { slots: { nzo_id: string }[] } };
  assert.equal(queue.slots.length, 2);
  await fetch(
    `${srv.baseUrl}/sabnzbd/api?mode=queue&name=delete&value=${queue.slots[0]!.nzo_id}&apikey=${apiKey}&output=json`,
  );
  const added = JSON.parse((await addfile(5)).text) as Body;
  assert.equal(added.status, true);
  assert.equal(added.nzo_ids?.length, 1);
  // Full again: the upload is refused; after another removal it is taken, with the next id after the two first.
  assert.equal((await upload(6)).status, 503);
  await srv.app().importer.queue.remove(active[1]!.id);
  const up = await upload(6);
  assert.equal(up.status, 200);
  const ids = (await srv.app().importer.queue.active()).map((r) => r.id).sort();
  assert.deepEqual(ids, [3, 4], 'ids 1 and 2 were the first adds; no refused add took one');
});
