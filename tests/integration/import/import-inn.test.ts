import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildNzb, type PostedFile } from '../../support/inn/poster.js';
import {
  adminApiKey,
  api,
  davGet,
  davList,
  importServerOverInn,
  sha256,
  upload,
  waitForItem,
  type QueueItem,
} from './support.js';
import { film } from '../../support/media/film.js';

// NZBs posted to a real INN, uploaded through the real HTTP API, imported by the real runner, read back
// through the real WebDAV GET (VFS reader over the NNTP pool) and compared byte for byte.
const POSTER = 'Spool Test <poster@spool.test>';

const env = importServerOverInn({ sabnzbd: { enabled: true } });

const nzbOf = (files: PostedFile[]) => buildNzb(files, env.inn.group, POSTER);
const obfuscated = () => randomBytes(16).toString('hex');

async function importNzb(name: string, xml: string, fields: Record<string, string> = {}): Promise<QueueItem> {
  const up = await upload(env.srv.baseUrl, name, xml, fields);
  assert.equal(up.status, 200, JSON.stringify(up.body));
  return waitForItem(env.srv.baseUrl, up.body.data!.id);
}

test('a single large file: imported, listed under its category, byte-identical through WebDAV', async () => {
  const data = film(40 * 1024 * 1024 + 4321);
  const posted = await env.inn.postFile('Big.Movie.2024.1080p.mkv', data);
  const item = await importNzb('Big.Movie.2024.1080p.nzb', posted.nzbXml, { category: 'movies' });
  assert.equal(item.status, 'completed', item.error_message ?? '');
  assert.equal(item.target_path, '/complete/movies/Big.Movie.2024.1080p');
  assert.equal(item.file_size, data.length);
  assert.deepEqual(await davList(env.srv.baseUrl, item.target_path), ['Big.Movie.2024.1080p.mkv']);
  const got = await davGet(env.srv.baseUrl, `${item.target_path}/Big.Movie.2024.1080p.mkv`);
  assert.equal(got.status, 200);
  assert.equal(sha256(got.body), sha256(data));
  // The file knows where it came from and how its articles map (docs/console-contract.md §3 File metadata).
  const info = await api<{ segment_count: number; source_nzb_path: string }>(
    env.srv.baseUrl,
    `/api/files/info?path=${encodeURIComponent(`${item.target_path}/Big.Movie.2024.1080p.mkv`)}`,
  );
  assert.equal(info.body.data?.segment_count, posted.segments.length);
  assert.equal(info.body.data?.source_nzb_path, 'Big.Movie.2024.1080p.nzb');
});

test('obfuscated names (media and PAR2 alike) are resolved through real PAR2; repair files stay out of the job', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spool-par2-'));
  try {
    const movie = film(3 * 1024 * 1024 + 77);
    const subs = randomBytes(40_000);
    writeFileSync(join(dir, 'Movie.Name.2024.mkv'), movie);
    writeFileSync(join(dir, 'Movie.Name.2024.srt'), subs);
    execFileSync(
      'par2',
      ['create', '-q', '-r5', '-n2', 'Movie.Name.2024.par2', 'Movie.Name.2024.mkv', 'Movie.Name.2024.srt'],
      { cwd: dir },
    );
    const par2Files = readdirSync(dir).filter((f) => f.endsWith('.par2'));
    assert.ok(par2Files.length >= 2, `par2 made ${par2Files.join(', ')}`);
    const posted: PostedFile[] = [];
    // Every file is posted under a random hex name: subject and yEnc header say nothing.
    posted.push(await env.inn.postFile(obfuscated(), movie, { articleSize: 500_000 }));
    posted.push(await env.inn.postFile(obfuscated(), subs));
    for (const f of par2Files)
      posted.push(await env.inn.postFile(obfuscated(), readFileSync(join(dir, f)), { articleSize: 500_000 }));
    const item = await importNzb('Movie.Name.2024.nzb', nzbOf(posted), { category: 'movies' });
    assert.equal(item.status, 'completed', item.error_message ?? '');
    assert.deepEqual((await davList(env.srv.baseUrl, item.target_path!)).sort(), [
      'Movie.Name.2024.mkv',
      'Movie.Name.2024.srt',
    ]);
    assert.equal(
      sha256((await davGet(env.srv.baseUrl, `${item.target_path}/Movie.Name.2024.mkv`)).body),
      sha256(movie),
    );
    assert.equal(sha256((await davGet(env.srv.baseUrl, `${item.target_path}/Movie.Name.2024.srt`)).body), sha256(subs));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('split .001/.002/.003 files are joined into one virtual file', async () => {
  const whole = film(2_500_000);
  const pieces = [whole.subarray(0, 1_000_000), whole.subarray(1_000_000, 2_000_000), whole.subarray(2_000_000)];
  const posted: PostedFile[] = [];
  for (const [i, piece] of pieces.entries()) {
    posted.push(await env.inn.postFile(`Show.S01E01.720p.mkv.00${i + 1}`, piece, { articleSize: 300_000 }));
  }
  const item = await importNzb('Show.S01E01.720p.nzb', nzbOf(posted.reverse()), { category: 'tv' });
  assert.equal(item.status, 'completed', item.error_message ?? '');
  assert.equal(item.target_path, '/complete/tv/Show.S01E01.720p');
  assert.deepEqual(await davList(env.srv.baseUrl, item.target_path), ['Show.S01E01.720p.mkv']);
  const got = await davGet(env.srv.baseUrl, `${item.target_path}/Show.S01E01.720p.mkv`);
  assert.equal(sha256(got.body), sha256(whole));
});

test('articles missing on the provider fail the item with which file and how many', async () => {
  const data = film(2_000_000);
  const posted = await env.inn.postFile('Broken.Release.mkv', data, { articleSize: 250_000 });
  const damaged = {
    ...posted,
    segments: posted.segments.map((s, i) => (i === 3 || i === 5 ? { ...s, messageId: `gone-${i}-${s.messageId}` } : s)),
  };
  const item = await importNzb('Broken.Release.nzb', nzbOf([damaged]));
  assert.equal(item.status, 'failed');
  assert.match(item.error_message ?? '', /Broken\.Release\.mkv: 2 of 8 articles missing/);
  assert.match(item.error_message ?? '', /gone-3-/);
  assert.equal(item.retry_count, 0, 'missing articles do not come back by retrying');
  assert.equal(
    (
      await fetch(`${env.srv.baseUrl}/webdav/complete/default/Broken.Release`, {
        method: 'PROPFIND',
        headers: { Depth: '0' },
      })
    ).status,
    404,
  );
});

test('a malformed NZB and an XML entity bomb fail with a clear message; the server keeps working', async () => {
  const malformed = await importNzb('Malformed.nzb', '<?xml version="1.0"?><nzb><file subject="x"><segments><segment');
  assert.equal(malformed.status, 'failed');
  assert.match(malformed.error_message ?? '', /^The NZB could not be read: Invalid NZB/);
  const bomb =
    '<?xml version="1.0"?><!DOCTYPE nzb [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">' +
    '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>' +
    '<nzb><file subject="&d;&d;&d;&d;"><groups><group>g</group></groups><segments><segment number="1">x@y</segment></segments></file></nzb>';
  const bombed = await importNzb('Bomb.nzb', bomb);
  assert.equal(bombed.status, 'failed');
  assert.match(bombed.error_message ?? '', /The NZB could not be read/);
  assert.match(bombed.error_message ?? '', /DTD|DOCTYPE|entit/i);
  assert.equal((await api(env.srv.baseUrl, '/api/queue/stats')).status, 200);
});

test('SABnzbd addfile: multipart `name` part, cat and priority in the query, answers nzo_ids', async () => {
  const data = film(900_000);
  const posted = await env.inn.postFile('Sab.Show.S02E03.mkv', data, { articleSize: 300_000 });
  const form = new FormData();
  form.append('name', new Blob([posted.nzbXml], { type: 'application/x-nzb' }), 'Sab.Show.S02E03.nzb');
  const res = await fetch(
    `${env.srv.baseUrl}/sabnzbd/api?mode=addfile&cat=tv&priority=-100&apikey=${await adminApiKey(env.srv)}&output=json`,
    {
      method: 'POST',
      body: form,
    },
  );
  assert.equal(res.status, 200);
  const body = (await res.json()) as { status: boolean; nzo_ids: string[] };
  assert.equal(body.status, true);
  assert.equal(body.nzo_ids.length, 1);
  assert.match(body.nzo_ids[0]!, /^SABnzbd_nzo_[a-z0-9]+_\d+$/);
  const item = await waitForItem(env.srv.baseUrl, Number(/_(\d+)$/.exec(body.nzo_ids[0]!)![1]));
  assert.equal(item.status, 'completed', item.error_message ?? '');
  assert.equal(item.category, 'tv');
  assert.equal(sha256((await davGet(env.srv.baseUrl, `${item.target_path}/Sab.Show.S02E03.mkv`)).body), sha256(data));
  const wrong = await fetch(`${env.srv.baseUrl}/sabnzbd/api?mode=addfile&output=json`, {
    method: 'POST',
    body: new FormData(),
  });
  assert.equal(((await wrong.json()) as { status: boolean }).status, false);
});

test('queue API: list filters, search, stats, retry, delete, bulk and clear', async () => {
  const list = await api<QueueItem[]>(env.srv.baseUrl, '/api/queue?limit=2&offset=0');
  assert.equal(list.status, 200);
  assert.equal(list.body.data?.length, 2);
  const meta = list.body.meta as { total: number };
  assert.ok(meta.total >= 7, `total ${meta.total}`);
  const failed = await api<QueueItem[]>(env.srv.baseUrl, '/api/queue?status=failed&limit=20');
  assert.ok(failed.body.data!.length >= 3 && failed.body.data!.every((i) => i.status === 'failed'));
  const search = await api<QueueItem[]>(env.srv.baseUrl, '/api/queue?search=malformed');
  assert.deepEqual(
    search.body.data?.map((i) => i.nzb_path),
    ['Malformed.nzb'],
  );
  const stats = (await api<Record<string, number>>(env.srv.baseUrl, '/api/queue/stats')).body.data!;
  assert.equal(stats.total_queued, meta.total);
  assert.equal(stats.total_failed, failed.body.data!.length);

  const malformedId = search.body.data![0]!.id;
  const retried = await api<QueueItem>(env.srv.baseUrl, `/api/queue/${malformedId}/retry`, { method: 'POST' });
  assert.equal(retried.status, 200);
  assert.equal((await waitForItem(env.srv.baseUrl, malformedId)).status, 'failed');

  assert.equal((await api(env.srv.baseUrl, '/api/queue/999999')).status, 404);
  assert.equal((await api(env.srv.baseUrl, '/api/queue/abc')).status, 400);
  assert.equal((await api(env.srv.baseUrl, '/api/queue?status=bogus')).status, 400);
  assert.equal((await api(env.srv.baseUrl, '/api/queue?since=not-a-date')).status, 400);

  const del = await api(env.srv.baseUrl, `/api/queue/${malformedId}`, { method: 'DELETE' });
  assert.equal(del.status, 200);
  assert.equal((await api(env.srv.baseUrl, `/api/queue/${malformedId}`)).status, 404);

  const completed = (await api<QueueItem[]>(env.srv.baseUrl, '/api/queue?status=completed&limit=0')).body.data!;
  const restart = await api<{ restarted_count: number }>(env.srv.baseUrl, '/api/queue/bulk/restart', {
    method: 'POST',
    json: { ids: [completed[0]!.id] },
  });
  assert.equal(restart.body.data?.restarted_count, 1);
  const again = await waitForItem(env.srv.baseUrl, completed[0]!.id);
  assert.equal(again.status, 'completed', 're-import of the same NZB replaces its own job');
  assert.equal(again.target_path, completed[0]!.target_path);

  const bulk = await api<{ deleted_count: number }>(env.srv.baseUrl, '/api/queue/bulk', {
    method: 'DELETE',
    json: { ids: [completed[1]!.id] },
  });
  assert.equal(bulk.body.data?.deleted_count, 1);
  assert.equal((await api(env.srv.baseUrl, '/api/queue/bulk', { method: 'DELETE', json: { ids: [] } })).status, 400);

  const future = new Date(Date.now() + 60_000).toISOString();
  const cleared = await api<{ deleted_count: number }>(
    env.srv.baseUrl,
    `/api/queue/failed?older_than=${encodeURIComponent(future)}`,
    { method: 'DELETE' },
  );
  assert.ok(cleared.body.data!.deleted_count >= 2);
  assert.equal((await api<Record<string, number>>(env.srv.baseUrl, '/api/queue/stats')).body.data!.total_failed, 0);
  const clearedDone = await api<{ deleted_count: number }>(env.srv.baseUrl, '/api/queue/completed', {
    method: 'DELETE',
  });
  assert.ok(clearedDone.body.data!.deleted_count >= 1);
  assert.equal((await api<Record<string, number>>(env.srv.baseUrl, '/api/queue/stats')).body.data!.total_queued, 0);
});
