import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { ImportError } from '../../../appliance/importer/index.js';
import { ArrSabClient, type ArrItem } from '../../support/arr-sab-client.js';
import { adminApiKey, api, startServer, type TestServer } from '../../support/server.js';
import { waitUntil } from '../../support/wait.js';

// sabnzbd.fallback_host: an NZB Spool cannot stream goes to a real SABnzbd, and the arr (which knows only Spool's
// nzo_id) sees that job finish there. The "real SABnzbd" is a small HTTP stand-in; the import's failure is injected
// in the form the archive reader gives it for a compressed RAR (ImportError code ARCHIVE_COMPRESSED).
let srv: TestServer;
let sab: Server;
let sabUrl = '';
const received: { query: URLSearchParams; body: string }[] = [];
let remoteState: 'queue' | 'history' | 'gone' = 'queue';

before(async () => {
  sab = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const q = url.searchParams;
      received.push({ query: q, body: Buffer.concat(chunks).toString('utf8') });
      res.setHeader('content-type', 'application/json');
      if (q.get('apikey') !== 'fallback-key')
        return res.end(JSON.stringify({ status: false, error: 'API Key Incorrect' }));
      const mode = q.get('mode');
      if (mode === 'addfile') return res.end(JSON.stringify({ status: true, nzo_ids: ['SABnzbd_nzo_real0001'] }));
      const slot = { nzo_id: 'SABnzbd_nzo_real0001', status: 'Downloading' };
      if (mode === 'queue') return res.end(JSON.stringify({ queue: { slots: remoteState === 'queue' ? [slot] : [] } }));
      const done = {
        nzo_id: 'SABnzbd_nzo_real0001',
        status: 'Completed',
        storage: '/real/complete/tv/Packed.Show',
        fail_message: '',
      };
      return res.end(JSON.stringify({ history: { slots: remoteState === 'history' ? [done] : [] } }));
    });
  });
  await new Promise<void>((r) => sab.listen(0, '127.0.0.1', r));
  sabUrl = `http://127.0.0.1:${(sab.address() as AddressInfo).port}`;
  srv = await startServer({
    config: {
      auth: { login_required: false },
      import: { queue_processing_interval_seconds: 1 },
      sabnzbd: { enabled: true, fallback_host: sabUrl, fallback_api_key: 'fallback-key' },
    },
  });
  srv.app().importer.importer.run = () =>
    Promise.reject(
      new ImportError(
        'Packed.Show.mkv is inside a compressed RAR archive, which cannot be streamed',
        false,
        'ARCHIVE_COMPRESSED',
      ),
    );
});

after(async () => {
  await srv?.stop();
  sab?.close();
});

async function poll(
  arr: ArrSabClient,
  id: string,
  until: (i: ArrItem | undefined) => boolean,
): Promise<ArrItem | undefined> {
  let item: ArrItem | undefined;
  await waitUntil(
    () => `a state change for ${id} (${JSON.stringify(item)})`,
    async () => until((item = (await arr.getItems()).find((x) => x.downloadId === id))),
  );
  return item;
}

test('an unstreamable NZB is forwarded; the arr follows the job there to Completed, and the history says so', async () => {
  const arr = new ArrSabClient({
    baseUrl: srv.baseUrl,
    urlBase: '/sabnzbd',
    apiKey: await adminApiKey(srv),
    category: 'tv',
  });
  const id = await arr.addFile('Packed.Show', '<nzb><file subject="x"><segments></segments></file></nzb>');
  // Downloading while Spool imports it too: wait until the fallback has it.
  const forwarded = () => received.some((r) => r.query.get('mode') === 'addfile');
  const waiting = await poll(arr, id, (i) => i?.status === 'Downloading' && i.remainingSize === 0 && forwarded());
  assert.equal(waiting?.outputPath, undefined);
  const add = received.find((r) => r.query.get('mode') === 'addfile')!;
  assert.equal(add.query.get('cat'), 'tv');
  assert.match(add.body, /name="name"; filename="Packed\.Show\.nzb"/);
  assert.match(add.body, /<nzb>/);

  remoteState = 'history';
  const done = await poll(arr, id, (i) => i?.status === 'Completed');
  assert.equal(done?.outputPath, '/real/complete/tv/Packed.Show');
  const history = (await (
    await fetch(`${srv.baseUrl}/sabnzbd/api?mode=history&category=tv&apikey=${await adminApiKey(srv)}`)
  ).json()) as {
    history: { slots: { nzo_id: string; stage_log: { actions: string[] }[] }[] };
  };
  const slot = history.history.slots.find((s) => s.nzo_id === id)!;
  assert.match(
    slot.stage_log[0]!.actions[0]!,
    /Forwarded to the SABnzbd at http:\/\/127\.0\.0\.1:\d+ \(SABnzbd_nzo_real0001\): .*compressed RAR/,
  );
});

test('a job the fallback lost fails with a reason; without a fallback host the import fails as it would', async () => {
  remoteState = 'gone';
  await new Promise((r) => setTimeout(r, 5100)); // past the cache of the fallback's answer
  const arr = new ArrSabClient({
    baseUrl: srv.baseUrl,
    urlBase: '/sabnzbd',
    apiKey: await adminApiKey(srv),
    category: 'tv',
  });
  const lost = (await arr.getItems()).find((i) => i.status === 'Failed');
  assert.match(lost?.message ?? '', /no longer knows job SABnzbd_nzo_real0001/);

  const off = await api(srv.baseUrl, '/api/config/sabnzbd', {
    method: 'PATCH',
    json: { section: 'sabnzbd', config: { fallback_host: '' } },
  });
  assert.equal(off.status, 200);
  const id = await arr.addFile('Packed.Again', '<nzb></nzb>');
  const failed = await poll(arr, id, (i) => i?.status === 'Failed');
  assert.match(failed?.message ?? '', /compressed RAR archive/);
});
