import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { writeRar5 } from '../../support/archive/rar5-writer.js';
import { materialize } from '../../support/archive/volumes.js';
import { startFakeArr, type FakeArr } from '../../support/fake-arr/server.js';
import { cancelArticles } from '../../support/inn/cancel.js';
import { buildNzb, type PostedFile } from '../../support/inn/poster.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { checkAndWait } from '../health/support.js';
import { davGet, davList, startImportServer, upload, waitForItem, type TestServer } from '../import/support.js';
import { ARTICLE, SLICE, waitForRecord, type Par2Record, repairTestConfig, ROOT } from './support.js';
import { film } from '../../support/media/film.js';

// A PAR2 set over RAR volumes (docs/health.md "PAR2 repair"): the tree shows the archive's member, the set protects
// the volumes. RAR5 store volumes written by the test writer, `par2 create -r10` over them by Debian's par2, all
// posted to INN; two articles of the middle volume cancelled; the check of the member rebuilds the volume slices
// and patches the member, with no arr call.
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

test('a member of RAR volumes whose volume articles are gone is rebuilt from the PAR2 set over the volumes', () =>
  repairsMember('Rar.Film.2024', false));

test('the same under obfuscated names (volumes of equal size: named from the PAR2 set at import)', () =>
  repairsMember('Obf.Film.2024', true));

async function repairsMember(title: string, obfuscate: boolean): Promise<void> {
  const movie = film(600_000);
  const volumes = writeRar5([{ name: `${title}.mkv`, data: movie }], {
    volumeSize: 250_000,
    base: title.toLowerCase(),
  });
  assert.ok(volumes.length >= 3, `volumes: ${volumes.length}`);
  const dir = mkdtempSync(join(tmpdir(), 'spool-par2-rar-'));
  const posted: PostedFile[] = [];
  try {
    for (const v of volumes) writeFileSync(join(dir, v.name), materialize(v));
    const names = volumes.map((v) => v.name);
    execFileSync('par2', ['create', '-q', '-q', `-s${SLICE}`, '-r10', `${title.toLowerCase()}.par2`, ...names], {
      cwd: dir,
    });
    const posting = (n: string) => (obfuscate ? randomBytes(12).toString('hex') : n);
    for (const n of names)
      posted.push(await inn.postFile(posting(n), readFileSync(join(dir, n)), { articleSize: ARTICLE }));
    for (const f of readdirSync(dir).filter((f) => f.endsWith('.par2')))
      posted.push(await inn.postFile(posting(f), readFileSync(join(dir, f)), { articleSize: ARTICLE }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const up = await upload(srv.baseUrl, `${title}.nzb`, buildNzb(posted, inn.group, 'poster@spool.test'), {
    category: 'movies',
  });
  assert.equal(up.status, 200, JSON.stringify(up.body));
  const item = await waitForItem(srv.baseUrl, up.body.data!.id);
  assert.equal(item.status, 'completed', item.error_message ?? '');
  assert.deepEqual(await davList(srv.baseUrl, item.target_path!), [`${title}.mkv`], 'the member, not volumes');
  const path = `${item.target_path}/${title}.mkv`;
  const filmRecord = radarr.addMovie({ title });
  radarr.addMovieFile(filmRecord.id, { path: `${ROOT}${path}` });
  // Two articles of the second volume: 8 slices of 5,000 bytes; 10% of the ~121 slices is 12 recovery slices.
  cancelArticles(inn, [posted[1]!.messageIds[3]!, posted[1]!.messageIds[8]!]);
  await checkAndWait(srv.baseUrl, path);
  const r = await waitForRecord<Record>(
    srv.baseUrl,
    path,
    (x) => x.repaired_from === 'par2' || /PAR2 repair/.test(x.error_details ?? ''),
  );
  assert.equal(r.repaired_from, 'par2', JSON.stringify(r));
  assert.equal(r.status, 'healthy');
  assert.deepEqual(r.missing_ranges, []);
  assert.deepEqual(radarr.callLines(), [], 'no arr is asked');
  const dav = await davGet(srv.baseUrl, path);
  assert.equal(dav.status, 200);
  assert.ok(dav.body.equals(movie), 'the member reads byte-exact over WebDAV');
  // A later check finds the articles still gone from INN, but the patches cover them.
  const again = await checkAndWait(srv.baseUrl, path);
  assert.equal(again.status, 'healthy');
  assert.deepEqual(radarr.callLines(), []);
}
