import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startFakeArr, type FakeArr } from '../../support/fake-arr/server.js';
import { cancelArticles } from '../../support/inn/cancel.js';
import { buildNzb, type PostedFile } from '../../support/inn/poster.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { checkAndWait } from '../health/support.js';
import { davGet, davList, startImportServer, upload, waitForItem, type TestServer } from '../import/support.js';
import { ARTICLE, SLICE, waitForRecord, type Par2Record, repairTestConfig, ROOT } from './support.js';
import { film } from '../../support/media/film.js';

// One recovery set over several files of one release (docs/health.md "PAR2 repair"): Debian's `par2 create -r10`
// over three files posted as one NZB; articles of one of them cancelled in INN; the check rebuilds that file from
// the set (the other files' slices are read as survivors), with no arr call.
let inn: InnServer;
let radarr: FakeArr;
let srv: TestServer;

type Record = Par2Record;

before(async () => {
  inn = await ensureInn();
  radarr = await startFakeArr({ type: 'radarr' });
  srv = await startImportServer(inn, repairTestConfig(inn, radarr));
});
after(async () => {
  await srv?.stop();
  await radarr?.close();
});

test('a -r10 set over three files of one release repairs the damaged one byte-exact, no arr call', async () => {
  const names = ['Multi.Show.S01E01.mkv', 'Multi.Show.S01E02.mkv', 'Multi.Show.S01E03.mkv'];
  const sizes = [300_000, 240_000, 180_000];
  const dir = mkdtempSync(join(tmpdir(), 'spool-par2-multi-'));
  const bytes = new Map<string, Buffer>();
  const posted: PostedFile[] = [];
  try {
    names.forEach((n, i) => {
      bytes.set(n, film(sizes[i]!, n));
      writeFileSync(join(dir, n), bytes.get(n)!);
    });
    execFileSync('par2', ['create', '-q', '-q', `-s${SLICE}`, '-r10', 'Multi.Show.S01.par2', ...names], { cwd: dir });
    for (const n of names) posted.push(await inn.postFile(n, bytes.get(n)!, { articleSize: ARTICLE }));
    for (const f of readdirSync(dir).filter((f) => f.endsWith('.par2')))
      posted.push(await inn.postFile(f, readFileSync(join(dir, f)), { articleSize: ARTICLE }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const up = await upload(srv.baseUrl, 'Multi.Show.S01.nzb', buildNzb(posted, inn.group, 'poster@spool.test'), {
    category: 'movies',
  });
  assert.equal(up.status, 200, JSON.stringify(up.body));
  const item = await waitForItem(srv.baseUrl, up.body.data!.id);
  assert.equal(item.status, 'completed', item.error_message ?? '');
  assert.deepEqual((await davList(srv.baseUrl, item.target_path!)).sort(), names);
  // Two articles of the second file: 8 slices of 5,000 bytes; 10% of 144 slices is 14 recovery slices.
  const target = `${item.target_path}/${names[1]}`;
  const movie = radarr.addMovie({ title: 'Multi Show' });
  radarr.addMovieFile(movie.id, { path: `${ROOT}${target}` });
  cancelArticles(inn, [posted[1]!.messageIds[2]!, posted[1]!.messageIds[7]!]);
  await checkAndWait(srv.baseUrl, target);
  const r = await waitForRecord<Record>(
    srv.baseUrl,
    target,
    (x) => x.repaired_from === 'par2' || /PAR2 repair/.test(x.error_details ?? ''),
  );
  assert.equal(r.repaired_from, 'par2', JSON.stringify(r));
  assert.equal(r.status, 'healthy');
  assert.deepEqual(radarr.callLines(), [], 'no arr is asked');
  for (const n of names) {
    const dav = await davGet(srv.baseUrl, `${item.target_path}/${n}`);
    assert.equal(dav.status, 200, n);
    assert.ok(dav.body.equals(bytes.get(n)!), `${n} reads byte-exact over WebDAV`);
  }
});
