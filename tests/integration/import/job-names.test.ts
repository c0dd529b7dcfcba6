import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { adminApiKey, davGet, davList, importServerOverInn, sha256, upload, waitForItem } from './support.js';
import { film } from '../../support/media/film.js';

// Imports that want the same job directory at the same time, through the real API, runner, LMDB and INN.

const env = importServerOverInn({
  import: { queue_processing_interval_seconds: 1, segment_sample_percentage: 100, max_processor_workers: 4 },
  sabnzbd: { enabled: true },
});

async function uploadAll(entries: { name: string; xml: string }[]) {
  const ups = await Promise.all(entries.map((e) => upload(env.srv.baseUrl, e.name, e.xml)));
  for (const up of ups) assert.equal(up.status, 200, JSON.stringify(up.body));
  return Promise.all(ups.map((up) => waitForItem(env.srv.baseUrl, up.body.data!.id)));
}

test('the same NZB uploaded twice at once: two jobs in two directories, none replaced', async () => {
  const data = film(600_000);
  const posted = await env.inn.postFile('Twice.Uploaded.mkv', data, { articleSize: 200_000 });
  for (let round = 0; round < 3; round++) {
    const name = `Twice.Uploaded.R${round}.nzb`;
    const items = await uploadAll([
      { name, xml: posted.nzbXml },
      { name, xml: posted.nzbXml },
    ]);
    for (const item of items) assert.equal(item.status, 'completed', item.error_message ?? '');
    const paths = items.map((i) => i.target_path!);
    assert.notEqual(paths[0], paths[1], `round ${round}: both items claim ${paths[0]}`);
    for (const p of paths) assert.deepEqual(await davList(env.srv.baseUrl, p), ['Twice.Uploaded.mkv']);
  }
});

test('two different NZBs with the same name at once: each job keeps its own release', async () => {
  const datas = [film(500_000), film(700_000), film(300_000)];
  const posts = await Promise.all(
    datas.map((d, i) => env.inn.postFile(`Same.Name.Part${i}.mkv`, d, { articleSize: 150_000 })),
  );
  const items = await uploadAll(posts.map((p) => ({ name: 'Same.Name.nzb', xml: p.nzbXml })));
  const paths = new Set<string>();
  for (const [i, item] of items.entries()) {
    assert.equal(item.status, 'completed', item.error_message ?? '');
    paths.add(item.target_path!);
    const got = await davGet(env.srv.baseUrl, `${item.target_path}/Same.Name.Part${i}.mkv`);
    assert.equal(got.status, 200, `${item.target_path} lost Same.Name.Part${i}.mkv`);
    assert.equal(sha256(got.body), sha256(datas[i]!));
  }
  assert.equal(paths.size, 3, [...paths].join(', '));
});

test('names are UTF-8: upload and addfile file names, and the yEnc name of an obfuscated post', async () => {
  const data = film(300_000);
  const posted = await env.inn.postFile('Amélie.2001.1080p.BluRay.x264.mkv', data, { articleSize: 100_000 });
  // The subject says nothing: only the yEnc header names the file.
  const hidden = posted.nzbXml.replace(/subject="[^"]*"/, 'subject="a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6 yEnc (1/3)"');
  const up = await upload(env.srv.baseUrl, 'Amélie.2001.1080p.BluRay.x264.nzb', hidden, { category: 'movies' });
  assert.equal(up.status, 200, JSON.stringify(up.body));
  assert.equal(up.body.data!.nzb_path, 'Amélie.2001.1080p.BluRay.x264.nzb');
  const item = await waitForItem(env.srv.baseUrl, up.body.data!.id);
  assert.equal(item.status, 'completed', item.error_message ?? '');
  assert.equal(item.target_path, '/complete/movies/Amélie.2001.1080p.BluRay.x264');
  assert.deepEqual(await davList(env.srv.baseUrl, item.target_path), ['Amélie.2001.1080p.BluRay.x264.mkv']);

  const form = new FormData();
  form.append('name', new Blob([posted.nzbXml]), 'Crème.Brûlée.2020.nzb');
  const res = await fetch(
    `${env.srv.baseUrl}/sabnzbd/api?mode=addfile&cat=tv&apikey=${await adminApiKey(env.srv)}&output=json`,
    {
      method: 'POST',
      body: form,
    },
  );
  const body = (await res.json()) as { status: boolean; nzo_ids: string[] };
  assert.equal(body.status, true, JSON.stringify(body));
  const sab = await waitForItem(env.srv.baseUrl, Number(/_(\d+)$/.exec(body.nzo_ids[0]!)![1]));
  assert.equal(sab.target_path, '/complete/tv/Crème.Brûlée.2020');
});

test('a fully obfuscated release without PAR2 is named after the job, extension from the content', async () => {
  // A Matroska header (EBML, DocType "matroska") followed by random bytes, posted under a random hex name.
  const header = Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x88]);
  const data = Buffer.concat([header, Buffer.from('matroska'), randomBytes(400_000)]);
  const hex = randomBytes(16).toString('hex');
  const posted = await env.inn.postFile(hex, data, { articleSize: 150_000 });
  const up = await upload(env.srv.baseUrl, 'Hidden.Movie.2023.1080p.WEB.nzb', posted.nzbXml);
  const item = await waitForItem(env.srv.baseUrl, up.body.data!.id);
  assert.equal(item.status, 'completed', item.error_message ?? '');
  assert.deepEqual(await davList(env.srv.baseUrl, item.target_path!), ['Hidden.Movie.2023.1080p.WEB.mkv']);
  const got = await davGet(env.srv.baseUrl, `${item.target_path}/Hidden.Movie.2023.1080p.WEB.mkv`);
  assert.equal(sha256(got.body), sha256(data));
});
