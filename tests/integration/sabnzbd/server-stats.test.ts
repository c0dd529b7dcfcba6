/**
 * mode=server_stats and mode=warnings on the real server with INN as the provider: a grab through the SABnzbd API
 * is imported and then streamed over WebDAV; the bytes and articles the pool fetched show up per server under its
 * host, per day, and in the history's sizes; they survive a restart on the same data dir.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { dayLabel } from '../../../appliance/sabnzbd/calendar.js';
import { toUnits } from '../../../appliance/sabnzbd/sabnzbd.format.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import {
  adminApiKey,
  davGet,
  davList,
  sha256,
  startImportServer,
  waitForItem,
  type TestServer,
} from '../import/support.js';
import { film } from '../../support/media/film.js';

/** More than a connection's greeting, AUTHINFO and DATE answers; less than any article. */
const HANDSHAKE_BYTES = 1_000;

let inn: InnServer;
let srv: TestServer | undefined;
let dataDir = '';

type Stats = {
  total: number;
  month: number;
  week: number;
  day: number;
  servers: Record<
    string,
    {
      total: number;
      day: number;
      daily: Record<string, number>;
      articles_tried: Record<string, number>;
      articles_success: Record<string, number>;
    }
  >;
};

const start = (dir?: string) =>
  startImportServer(
    inn,
    {
      sabnzbd: { enabled: true },
      health: { enabled: false },
      import: { queue_processing_interval_seconds: 1 },
      // the stream fetches every article (the probe cache would serve the film's first and last from disk)
      streaming: { probe_cache_size_mb: 0 },
    },
    { dataDir: dir, keepDataDir: true },
  );

async function sab<T>(query: string): Promise<T> {
  const res = await fetch(`${srv!.baseUrl}/sabnzbd/api?${query}&apikey=${await adminApiKey(srv!)}&output=json`);
  assert.equal(res.status, 200);
  return (await res.json()) as T;
}

before(async () => {
  inn = await ensureInn();
  srv = await start();
  dataDir = srv.dataDir;
});
after(async () => {
  await srv?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('server_stats counts what the import and a stream fetched, per server and day, across a restart', async () => {
  const before = await sab<Stats>('mode=server_stats');
  assert.deepEqual(Object.keys(before.servers), [inn.host]);
  // The pool's idle warm connection may already have read the greeting and the login answers (every byte read
  // counts, docs/sabnzbd.md "Download totals"), but no article has been asked for.
  assert.ok(before.total < HANDSHAKE_BYTES, `${before.total} bytes before any article`);
  assert.deepEqual(Object.values(before.servers[inn.host]!.articles_tried).filter(Boolean), [], 'no article asked');

  const data = film(900_000);
  const posted = await inn.postFile('stats.film.mkv', data, { articleSize: 200_000 });
  const form = new FormData();
  form.append('name', new Blob([posted.nzbXml], { type: 'application/x-nzb' }), 'Stats.Film.2024.nzb');
  const added = await fetch(
    `${srv!.baseUrl}/sabnzbd/api?mode=addfile&cat=movies&apikey=${await adminApiKey(srv!)}&output=json`,
    {
      method: 'POST',
      body: form,
    },
  );
  const { nzo_ids } = (await added.json()) as { nzo_ids: string[] };
  const item = await waitForItem(srv!.baseUrl, srv!.app().sabnzbd.nzo.parse(nzo_ids[0]!)!);
  assert.equal(item.status, 'completed', item.error_message ?? '');
  const afterImport = await sab<Stats>('mode=server_stats');
  const today = dayLabel(Date.now());
  const server = afterImport.servers[inn.host]!;
  assert.ok(afterImport.total > 0, 'the import fetched something');
  assert.ok(server.articles_tried[today]! >= 1);

  // Streaming the whole file fetches every article: at least the file's size crossed the wire.
  const [name] = await davList(srv!.baseUrl, item.target_path!);
  const read = await davGet(srv!.baseUrl, `${item.target_path}/${name}`);
  assert.equal(sha256(read.body), sha256(data));
  const afterStream = await sab<Stats>('mode=server_stats');
  const s = afterStream.servers[inn.host]!;
  assert.ok(afterStream.total >= afterImport.total + data.length, `${afterStream.total} bytes in all`);
  assert.equal(s.total, afterStream.total, 'one provider: its total is the total');
  assert.equal(afterStream.day, afterStream.total);
  assert.equal(afterStream.week, afterStream.total);
  assert.equal(afterStream.month, afterStream.total);
  assert.deepEqual(s.daily, { [today]: afterStream.total });
  assert.ok(s.articles_tried[today]! >= posted.messageIds.length + 1, 'every article of the stream, plus the import');
  assert.equal(s.articles_success[today], 0, "SABnzbd's key for articles the server did not have: none here");
  const history = await sab<{ history: { total_size: string; day_size: string } }>('mode=history');
  assert.equal(history.history.total_size, toUnits(afterStream.total));
  assert.equal(history.history.day_size, toUnits(afterStream.total));

  await srv!.stop();
  srv = await start(dataDir);
  const restarted = await sab<Stats>('mode=server_stats');
  // Read back from LMDB; the new process's warm connection may add its own handshake on top.
  assert.ok(restarted.total >= afterStream.total, 'the totals are read back from LMDB');
  assert.ok(restarted.total < afterStream.total + HANDSHAKE_BYTES, `${restarted.total - afterStream.total} more`);
  assert.deepEqual(restarted.servers[inn.host]!.articles_tried, s.articles_tried);
});

test("warnings: the log's recent warnings in SABnzbd's shape; clear empties them; the queue says how many", async () => {
  await sab('mode=warnings&name=clear');
  srv!.app().logger.child('nntp').warn('provider put aside', { provider: 'inn', error: 'ECONNREFUSED' });
  const { warnings } = await sab<{ warnings: { type: string; text: string; time: number; origin: string }[] }>(
    'mode=warnings',
  );
  assert.equal(warnings.length, 1);
  assert.deepEqual(
    { ...warnings[0], time: typeof warnings[0]!.time },
    {
      type: 'WARNING',
      text: 'provider put aside (provider: inn, error: ECONNREFUSED)',
      time: 'number',
      origin: 'test.nntp',
    },
  );
  assert.equal((await sab<{ queue: { have_warnings: string } }>('mode=queue')).queue.have_warnings, '1');
  assert.deepEqual(await sab('mode=warnings&name=clear'), { status: true });
  assert.deepEqual(await sab('mode=warnings'), { warnings: [] });
});
