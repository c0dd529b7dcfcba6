import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { SabConfig } from '../../../appliance/sabnzbd/index.js';
import { adminApiKey, api, startServer, type TestServer } from '../../support/server.js';

// Every SABnzbd mode against the real server (no news server needed: history items are finished in process).
let srv: TestServer;
let root: string;
let indexer: Server;
let indexerUrl = '';

type Body = Record<string, unknown> & { status?: unknown; error?: string };

let apiKey = '';

/** A call as the arrs make it: the API key is always sent, login required or not. */
const sab = async (query: string, init?: RequestInit, path = '/sabnzbd/api'): Promise<Body> => {
  const res = await fetch(`${srv.baseUrl}${path}?${query}&apikey=${apiKey}`, init);
  assert.equal(res.status, 200);
  return (await res.json()) as Body;
};

const NZB = '<nzb><file subject="x"><segments><segment bytes="1" number="1">a@b</segment></segments></file></nzb>';

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'spool-sabmodes-'));
  srv = await startServer({
    config: {
      auth: { login_required: false },
      mount_path: join(root, 'mnt'),
      import: { import_strategy: 'symlink', import_dir: join(root, 'downloads') },
      sabnzbd: {
        enabled: true,
        categories: [
          { name: 'tv', order: 2, priority: 1, dir: 'series' },
          { name: 'movies', order: 1, priority: 0, dir: '' },
        ],
      },
    },
  });
  apiKey = await adminApiKey(srv);
  // Nothing is imported here: history items are made by hand below.
  srv.app().importer.runner.pause();
  indexer = createServer((req, res) => {
    if (req.url?.startsWith('/get.php')) {
      res.writeHead(200, { 'content-disposition': 'attachment; filename="Fetched.Show.S01E01.nzb"' });
      res.end(NZB);
    } else if (req.url === '/huge') {
      res.writeHead(200, { 'content-length': String(200 * 1024 * 1024) });
      res.end();
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => indexer.listen(0, '127.0.0.1', r));
  indexerUrl = `http://127.0.0.1:${(indexer.address() as AddressInfo).port}`;
});

after(async () => {
  await srv?.stop();
  indexer?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** A finished item made in process: enqueue, then complete or fail it directly. */
async function finished(name: string, category: string | null, outcome: 'completed' | 'failed'): Promise<number> {
  const queue = srv.app().importer.queue;
  const item = await queue.enqueue({ nzb: Buffer.from(NZB), nzbPath: `${name}.nzb`, category });
  if (outcome === 'completed') await queue.complete(item.id, { targetPath: `/complete/x/${name}`, fileSize: 1000 });
  else await queue.fail(item.id, 'Missing articles on every provider in 1 file(s)', null);
  return item.id;
}

test('version, auth and get_cats; /api answers the same; an unknown mode is not implemented', async () => {
  assert.deepEqual(await sab('mode=version'), { version: '4.5.1' });
  assert.deepEqual(await sab('mode=version&output=json', undefined, '/api'), { version: '4.5.1' });
  assert.deepEqual(await sab('mode=auth'), { auth: 'apikey' });
  assert.deepEqual(await sab('mode=auth&key=nope'), { auth: 'badkey' });
  assert.deepEqual(await sab('mode=get_cats'), { categories: ['*', 'movies', 'tv'] });
  assert.deepEqual(await sab('mode=foo'), { status: false, error: 'not implemented' });
});

test('get_config: absolute complete_dir, categories * first by order, no sorters, history kept', async () => {
  const { config } = (await sab('mode=get_config')) as unknown as { config: SabConfig };
  assert.equal(config.misc.complete_dir, join(root, 'downloads'));
  assert.equal(config.misc.pre_check, 0);
  assert.equal(config.misc.history_retention_option, 'all');
  assert.deepEqual(config.sorters, []);
  assert.deepEqual(
    config.categories.map((c) => [c.name, c.order, c.dir, c.priority, c.pp, c.script]),
    [
      ['*', 0, '', 0, '3', 'None'],
      ['movies', 1, 'movies', 0, '', 'Default'],
      ['tv', 2, 'series', 1, '', 'Default'],
    ],
  );
  // The category folders exist, so the arrs' remote path check finds them.
  assert.ok((await stat(join(root, 'downloads', 'series'))).isDirectory());
  const full = (await sab('mode=fullstatus&skip_dashboard=1')) as { status: Record<string, unknown> };
  assert.equal(full.status.completedir, join(root, 'downloads'));
});

test('output=xml where SABnzbd has it', async () => {
  const res = await fetch(`${srv.baseUrl}/sabnzbd/api?mode=version&output=xml`);
  assert.match(res.headers.get('content-type') ?? '', /xml/);
  assert.equal(await res.text(), '<?xml version="1.0" encoding="UTF-8" ?>\n<version>4.5.1</version>\n');
  const queue = await (await fetch(`${srv.baseUrl}/sabnzbd/api?mode=queue&output=xml&apikey=${apiKey}`)).text();
  assert.match(queue, /^<\?xml [^>]+>\n<queue>.*<slots>.*<\/slots>.*<\/queue>\n$/s);
});

test('addfile takes the file from `nzbfile` too, and nzbname/cat/priority from the form', async () => {
  const form = new FormData();
  form.append('nzbfile', new Blob([NZB]), 'upload.nzb');
  form.append('cat', 'tv');
  form.append('nzbname', 'Named.By.Form');
  const added = (await sab('mode=addfile', { method: 'POST', body: form })) as { nzo_ids: string[] };
  const queue = (await sab('mode=queue&limit=0&cat=tv')) as { queue: { slots: Record<string, unknown>[] } };
  const slot = queue.queue.slots.find((s) => s.nzo_id === added.nzo_ids[0]);
  assert.equal(slot?.filename, 'Named.By.Form');
  assert.equal(slot?.cat, 'tv');
  assert.equal(slot?.priority, 'High', "the category's own priority applies when none is sent");
  assert.deepEqual(await sab('mode=addfile', { method: 'POST', body: new FormData() }), {
    status: false,
    error: 'No NZB file in the upload',
  });
});

test('addurl fetches the NZB (named from Content-Disposition); errors are reported, keys never echoed', async () => {
  const url = encodeURIComponent(`${indexerUrl}/get.php?id=1&apikey=SECRET`);
  const added = (await sab(`mode=addurl&name=${url}&cat=movies&priority=-100`, { method: 'POST' })) as {
    status: boolean;
    nzo_ids: string[];
  };
  assert.equal(added.status, true);
  const queue = (await sab('mode=queue&limit=0&category=movies')) as { queue: { slots: Record<string, unknown>[] } };
  assert.equal(queue.queue.slots.find((s) => s.nzo_id === added.nzo_ids[0])?.filename, 'Fetched.Show.S01E01');
  const missing = await sab(`mode=addurl&name=${encodeURIComponent(`${indexerUrl}/nope?apikey=SECRET`)}`);
  assert.equal(missing.status, false);
  assert.match(missing.error ?? '', /HTTP 404/);
  assert.doesNotMatch(missing.error ?? '', /SECRET/);
  const huge = await sab(`mode=addurl&name=${encodeURIComponent(`${indexerUrl}/huge`)}`);
  assert.match(huge.error ?? '', /larger than 100 MB/);
  assert.match((await sab('mode=addurl&name=ftp%3A%2F%2Fx')).error ?? '', /http or https/);
});

test('history: newest first, per category, paging, nzo_ids and search; failed items say why', async () => {
  const ids: number[] = [];
  for (let i = 0; i < 5; i++) ids.push(await finished(`Hist.Tv.${i}`, 'tv', i === 3 ? 'failed' : 'completed'));
  await finished('Hist.Movie', 'movies', 'completed');
  const page = (await sab('mode=history&start=0&limit=3&category=tv')) as {
    history: { noofslots: number; slots: Record<string, unknown>[] };
  };
  assert.equal(page.history.noofslots, 5);
  // Newest first, with jobs still in post-processing (here: completed but not readable yet) on top.
  assert.deepEqual(
    page.history.slots.map((s) => s.name),
    ['Hist.Tv.4', 'Hist.Tv.2', 'Hist.Tv.3'],
  );
  const failed = page.history.slots[2]!;
  assert.equal(failed.status, 'Failed');
  assert.match(String(failed.fail_message), /Missing articles/);
  // A completed job whose files do not read yet is still post-processing for the arr, with no storage.
  assert.equal(page.history.slots[0]!.status, 'Verifying');
  assert.equal(page.history.slots[0]!.storage, '');
  const next = (await sab('mode=history&start=3&limit=3&category=tv')) as { history: { slots: { name: string }[] } };
  assert.deepEqual(
    next.history.slots.map((s) => s.name),
    ['Hist.Tv.1', 'Hist.Tv.0'],
  );
  const nzo = String(page.history.slots[1]!.nzo_id);
  const one = (await sab(`mode=history&nzo_ids=${nzo}`)) as { history: { slots: { name: string }[] } };
  assert.deepEqual(
    one.history.slots.map((s) => s.name),
    ['Hist.Tv.2'],
  );
  const found = (await sab('mode=history&search=movie')) as { history: { slots: { name: string }[] } };
  assert.deepEqual(
    found.history.slots.map((s) => s.name),
    ['Hist.Movie'],
  );
});

test('history delete: del_files removes the job folder only; the virtual job goes only with del_completed_files', async () => {
  const app = srv.app();
  const item = await app.importer.queue.enqueue({ nzb: Buffer.from(NZB), nzbPath: 'Del.Me.nzb', category: 'tv' });
  await app.streaming.vfs.addJob({ category: 'series', jobName: 'Del.Me', files: [] });
  const storage = await app.importer.output.publish('/complete/series/Del.Me', []);
  await app.importer.queue.complete(item.id, {
    targetPath: '/complete/series/Del.Me',
    fileSize: 1,
    storagePath: storage,
  });
  const nzo = app.sabnzbd.nzo.of(item.id);
  assert.ok((await stat(storage)).isDirectory());
  assert.deepEqual(await sab(`mode=history&name=delete&del_files=1&archive=1&value=${nzo}`), { status: true });
  await assert.rejects(stat(storage));
  assert.ok((await stat(join(root, 'downloads', 'series'))).isDirectory());
  assert.ok(app.streaming.vfs.stat('/complete/series/Del.Me'), 'virtual files stay');
  assert.equal(await app.importer.queue.get(item.id), undefined);

  const other = await finished('Del.Content', 'tv', 'completed');
  await app.streaming.vfs.addJob({ category: 'x', jobName: 'Del.Content', files: [] });
  await sab(`mode=history&name=delete&del_files=1&del_completed_files=1&value=${app.sabnzbd.nzo.of(other)}`);
  assert.equal(app.streaming.vfs.stat('/complete/x/Del.Content'), undefined);
  // An unknown id is already gone: deleting it again is not an error the arr would log.
  assert.deepEqual(await sab(`mode=history&name=delete&del_files=1&value=${nzo}`), { status: true });
});

test('queue: pause and resume one item; global pause shows in the queue', async () => {
  const form = new FormData();
  form.append('name', new Blob([NZB]), 'Pause.Me.nzb');
  const { nzo_ids } = (await sab('mode=addfile&cat=movies', { method: 'POST', body: form })) as { nzo_ids: string[] };
  await sab(`mode=queue&name=pause&value=${nzo_ids[0]}`);
  const slotOf = async () =>
    ((await sab('mode=queue&limit=0')) as { queue: { slots: Record<string, unknown>[] } }).queue.slots.find(
      (s) => s.nzo_id === nzo_ids[0],
    );
  assert.equal((await slotOf())?.status, 'Paused');
  await sab(`mode=queue&name=resume&value=${nzo_ids[0]}`);
  assert.equal((await slotOf())?.status, 'Queued');
  assert.equal(((await sab('mode=queue')) as { queue: { paused: boolean } }).queue.paused, true);
});

test('disabled: every mode answers status false with a reason', async () => {
  const off = await api(srv.baseUrl, '/api/config/sabnzbd', {
    method: 'PATCH',
    json: { section: 'sabnzbd', config: { enabled: false } },
  });
  assert.equal(off.status, 200, JSON.stringify(off.body));
  const answer = await sab('mode=version');
  assert.equal(answer.status, false);
  assert.match(answer.error ?? '', /disabled/);
});
