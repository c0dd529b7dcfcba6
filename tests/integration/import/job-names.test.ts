import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { davGet, davList, sha256, startImportServer, upload, waitForItem, type TestServer } from './support.js';

// Imports that want the same job directory at the same time, through the real API, runner, LMDB and INN.
let inn: InnServer;
let srv: TestServer;

before(async () => {
  inn = await ensureInn();
  srv = await startImportServer(inn, {
    import: { queue_processing_interval_seconds: 1, segment_sample_percentage: 100, max_processor_workers: 4 },
  });
});
after(() => srv?.stop());

async function uploadAll(entries: { name: string; xml: string }[]) {
  const ups = await Promise.all(entries.map((e) => upload(srv.baseUrl, e.name, e.xml)));
  for (const up of ups) assert.equal(up.status, 200, JSON.stringify(up.body));
  return Promise.all(ups.map((up) => waitForItem(srv.baseUrl, up.body.data!.id)));
}

test('the same NZB uploaded twice at once: two jobs in two directories, none replaced', async () => {
  const data = randomBytes(600_000);
  const posted = await inn.postFile('Twice.Uploaded.mkv', data, { articleSize: 200_000 });
  for (let round = 0; round < 3; round++) {
    const name = `Twice.Uploaded.R${round}.nzb`;
    const items = await uploadAll([
      { name, xml: posted.nzbXml },
      { name, xml: posted.nzbXml },
    ]);
    for (const item of items) assert.equal(item.status, 'completed', item.error_message ?? '');
    const paths = items.map((i) => i.target_path!);
    assert.notEqual(paths[0], paths[1], `round ${round}: both items claim ${paths[0]}`);
    for (const p of paths) assert.deepEqual(await davList(srv.baseUrl, p), ['Twice.Uploaded.mkv']);
  }
});

test('two different NZBs with the same name at once: each job keeps its own release', async () => {
  const datas = [randomBytes(500_000), randomBytes(700_000), randomBytes(300_000)];
  const posts = await Promise.all(
    datas.map((d, i) => inn.postFile(`Same.Name.Part${i}.mkv`, d, { articleSize: 150_000 })),
  );
  const items = await uploadAll(posts.map((p) => ({ name: 'Same.Name.nzb', xml: p.nzbXml })));
  const paths = new Set<string>();
  for (const [i, item] of items.entries()) {
    assert.equal(item.status, 'completed', item.error_message ?? '');
    paths.add(item.target_path!);
    const got = await davGet(srv.baseUrl, `${item.target_path}/Same.Name.Part${i}.mkv`);
    assert.equal(got.status, 200, `${item.target_path} lost Same.Name.Part${i}.mkv`);
    assert.equal(sha256(got.body), sha256(datas[i]!));
  }
  assert.equal(paths.size, 3, [...paths].join(', '));
});
