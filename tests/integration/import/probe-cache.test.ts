import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { buildNzb } from '../../support/inn/poster.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { freePort } from '../../support/free-port.js';
import { ffprobeDuration, makeMedia } from '../../support/media/ffmpeg.js';
import type { TestServer } from '../../support/server.js';
import { api, innProvider, startImportServer, upload, waitForItem } from './support.js';
import { waitUntil } from '../../support/wait.js';

// The probe cache end to end (docs/streaming.md, "The probe cache"): an MP4 whose moov follows its media data is
// imported from INN; the import keeps its probe articles on disk; after a restart with every provider unreachable,
// the real ffprobe still reads it over WebDAV (its head, its boxes, its moov), while a read of its middle fails.
// The budget set to 0 empties the cache, and the same probe then fails too.

const execFileP = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), 'spool-probe-cache-it-'));
let inn: InnServer;
let srv: TestServer | undefined;
after(async () => {
  await srv?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const NAME = 'Probe.Cache.Film.2024.mp4';
const ARTICLE = 150_000;
let bytes: Buffer;
let path: string;

const cacheFiles = () => {
  const root = join(dataDir, 'probe-cache');
  try {
    return readdirSync(root).flatMap((shard) => readdirSync(join(root, shard)));
  } catch {
    return [];
  }
};

const davUrl = (s: TestServer, p: string) => `${s.baseUrl}/webdav${p.split('/').map(encodeURIComponent).join('/')}`;

/** The real ffprobe over HTTP, as a media server's scanner runs it: the container's duration, or its error. */
async function probe(s: TestServer): Promise<number> {
  const { stdout } = await execFileP(
    'ffprobe',
    ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', davUrl(s, path)],
    { timeout: 60_000 },
  );
  return Number(stdout.trim());
}

before(async () => {
  inn = await ensureInn();
  bytes = makeMedia('mp4-tail', 30, { fps: 25, size: '640x360' });
  assert.ok(bytes.length > 6 * ARTICLE, `several articles (${bytes.length} bytes)`);
  srv = await startImportServer(inn, {}, { dataDir, keepDataDir: true });
  const posted = await inn.postFile(NAME, bytes, { articleSize: ARTICLE });
  const up = await upload(srv.baseUrl, `${NAME}.nzb`, buildNzb([posted], inn.group, 'p <p@t>'));
  assert.equal(up.status, 200, JSON.stringify(up.body));
  const item = await waitForItem(srv.baseUrl, up.body.data!.id);
  assert.equal(item.status, 'completed', item.error_message ?? '');
  path = `${item.target_path}/${NAME}`;
  // the import keeps the first article, the moov's and the last (the moov's may be the last), on disk before the job
  // completes: the arr's ffprobe right after finds them
  assert.ok(cacheFiles().length >= 2, `probe articles on disk when the job completes (${cacheFiles().length})`);
  await srv.stop();
  srv = undefined;
});

test('after an import, a scan reads the film with every provider unreachable: its probe articles are on disk', async () => {
  const closed = { ...innProvider(inn), port: await freePort() };
  srv = await startImportServer(inn, { providers: [closed] }, { dataDir, keepDataDir: true });
  const kept = cacheFiles().length;
  assert.ok(kept >= 2 && kept < Math.ceil(bytes.length / ARTICLE) / 2, `a few articles kept, not the film (${kept})`);

  const expected = ffprobeDuration(bytes, 'mp4-tail');
  assert.ok(Math.abs((await probe(srv)) - expected) < 0.05, 'ffprobe over WebDAV reads the duration');

  // the providers really are out of reach: the middle of the film cannot be read
  const mid = Math.floor(bytes.length / 2);
  const res = await fetch(davUrl(srv, path), { headers: { Range: `bytes=${mid}-${mid + 1000}` } });
  assert.equal(res.status, 502, 'the middle needs a provider');
  await res.arrayBuffer();

  // the head came from disk byte for byte
  const head = await fetch(davUrl(srv, path), { headers: { Range: 'bytes=0-65535' } });
  assert.equal(head.status, 206);
  assert.ok(Buffer.from(await head.arrayBuffer()).equals(bytes.subarray(0, 65536)));
});

test('probe_cache_size_mb 0 empties the cache: the same scan then needs the providers and fails', async () => {
  assert.ok(srv, 'the server of the test before');
  const patch = await api(srv.baseUrl, '/api/config/streaming', {
    method: 'PATCH',
    json: { section: 'streaming', config: { probe_cache_size_mb: 0 } },
  });
  assert.equal(patch.status, 200, JSON.stringify(patch.body));
  await waitUntil('the cache files removed', () => cacheFiles().length === 0);
  // a restart (the memory cache empty again): the probe now needs a provider, and none can be reached
  await srv.stop();
  srv = await startImportServer(
    inn,
    { providers: [{ ...innProvider(inn), port: await freePort() }] },
    {
      dataDir,
      keepDataDir: true,
    },
  );
  await assert.rejects(probe(srv), 'ffprobe fails without the cache and without a provider');
});
