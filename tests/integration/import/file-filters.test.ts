import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildNzb, type PostedFile } from '../../support/inn/poster.js';
import { api, davList, importServerOverInn, upload, waitForItem } from './support.js';
import { film } from '../../support/media/film.js';

// import.allowed_file_extensions and import.filter_sample_files, at their defaults and changed live.

const env = importServerOverInn();

async function post(names: [string, number][]): Promise<PostedFile[]> {
  const out: PostedFile[] = [];
  for (const [name, size] of names) out.push(await env.inn.postFile(name, film(size, name), { articleSize: 100_000 }));
  return out;
}

async function importFiles(job: string, files: PostedFile[]) {
  const up = await upload(env.srv.baseUrl, `${job}.nzb`, buildNzb(files, env.inn.group, 'p <p@t>'));
  assert.equal(up.status, 200, JSON.stringify(up.body));
  return waitForItem(env.srv.baseUrl, up.body.data!.id);
}

test('defaults: samples, .iso and .mkv.exe are not exposed; the movie and its subtitles are', async () => {
  const files = await post([
    ['Filter.Movie.2024.1080p.mkv', 400_000],
    ['Filter.Movie.2024.1080p.sample.mkv', 60_000],
    ['Sample-Filter.Movie.mkv', 50_000],
    ['Filter.Movie.2024.1080p.srt', 5_000],
    ['Filter.Movie.2024.1080p.iso', 120_000],
    ['Filter.Movie.2024.1080p.mkv.exe', 30_000],
  ]);
  const item = await importFiles('Filter.Movie.2024.1080p', files);
  assert.equal(item.status, 'completed', item.error_message ?? '');
  assert.deepEqual((await davList(env.srv.baseUrl, item.target_path!)).sort(), [
    'Filter.Movie.2024.1080p.mkv',
    'Filter.Movie.2024.1080p.srt',
  ]);
});

test('a release with no allowed file fails with a message naming the setting', async () => {
  const item = await importFiles('Only.Setup.2024', await post([['Only.Setup.2024.exe', 80_000]]));
  assert.equal(item.status, 'failed');
  assert.match(item.error_message ?? '', /allowed_file_extensions/);
  assert.match(item.error_message ?? '', /Only\.Setup\.2024\.exe/);
});

test('filter_sample_files off and an empty extension list expose every file', async () => {
  const patch = await api(env.srv.baseUrl, '/api/config/import', {
    method: 'PATCH',
    json: { section: 'import', config: { filter_sample_files: false, allowed_file_extensions: [] } },
  });
  assert.equal(patch.status, 200, JSON.stringify(patch.body));
  const files = await post([
    ['Open.Movie.2024.mkv', 300_000],
    ['Open.Movie.2024.sample.mkv', 40_000],
    ['Open.Movie.2024.iso', 50_000],
  ]);
  const item = await importFiles('Open.Movie.2024', files);
  assert.equal(item.status, 'completed', item.error_message ?? '');
  assert.deepEqual((await davList(env.srv.baseUrl, item.target_path!)).sort(), [
    'Open.Movie.2024.iso',
    'Open.Movie.2024.mkv',
    'Open.Movie.2024.sample.mkv',
  ]);
});
