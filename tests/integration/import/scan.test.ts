import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, test } from 'node:test';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { api, davGet, sha256, startImportServer, waitForItem, type QueueItem, type TestServer } from './support.js';
import { film } from '../../support/media/film.js';

// Manual directory scan over a real tree of NZBs whose articles sit on a real INN.
let inn: InnServer;
let srv: TestServer;
let root: string;
/** A second scan root, for the cancel test; anything outside both roots is off limits. */
let manyRoot: string;
let outside: string;
const contents = new Map<string, Buffer>();

interface ScanStatus {
  status: string;
  path: string;
  files_found: number;
  files_added: number;
  files_skipped: number;
  current_file: string;
  last_error: string | null;
}

before(async () => {
  inn = await ensureInn();
  root = mkdtempSync(join(tmpdir(), 'spool-scan-'));
  manyRoot = mkdtempSync(join(tmpdir(), 'spool-scan-many-'));
  outside = mkdtempSync(join(tmpdir(), 'spool-scan-outside-'));
  srv = await startImportServer(inn, {
    import: { queue_processing_interval_seconds: 1, segment_sample_percentage: 100, scan_roots: [root, manyRoot] },
  });
  mkdirSync(join(root, 'sub', 'deeper'), { recursive: true });
  for (const [rel, name] of [
    ['Alpha.Movie.nzb', 'Alpha.Movie.mkv'],
    ['sub/Beta.Show.S01E01.nzb', 'Beta.Show.S01E01.mkv'],
    ['sub/deeper/Gamma.Doc.NZB', 'Gamma.Doc.mkv'],
  ] as const) {
    const data = film(600_000);
    contents.set(name, data);
    const posted = await inn.postFile(name, data, { articleSize: 200_000 });
    writeFileSync(join(root, rel), posted.nzbXml);
    if (rel === 'Alpha.Movie.nzb') writeFileSync(join(root, 'sub', 'Alpha.Copy.nzb'), posted.nzbXml); // same bytes, other name
  }
  writeFileSync(join(root, 'sub', 'notes.txt'), 'not an nzb');
});
after(async () => {
  await srv?.stop();
  for (const dir of [root, manyRoot, outside]) rmSync(dir, { recursive: true, force: true });
});

async function scanToEnd(): Promise<ScanStatus> {
  for (let i = 0; i < 300; i++) {
    const status = (await api<ScanStatus>(srv.baseUrl, '/api/import/scan/status')).body.data!;
    if (status.status === 'idle') return status;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('scan did not finish');
}

test('scan path validation uses the contract texts', async () => {
  const missing = await api(srv.baseUrl, '/api/import/scan', { method: 'POST', json: {} });
  assert.equal(missing.status, 400);
  assert.equal(missing.body.error?.message, 'Path is required');
  const relative = await api(srv.baseUrl, '/api/import/scan', { method: 'POST', json: { path: 'nzbs' } });
  assert.equal(relative.body.error?.message, 'Path must be absolute (start with /)');
  const absent = await api(srv.baseUrl, '/api/import/scan', { method: 'POST', json: { path: join(root, 'nope') } });
  assert.equal(absent.status, 400);
  assert.match(absent.body.error?.message ?? '', /Not a directory/);
});

test('a scan reads only under import.scan_roots: other paths, .. and symlinks out of a root are refused', async () => {
  writeFileSync(join(outside, 'Secret.nzb'), '<nzb/>');
  symlinkSync(outside, join(manyRoot, 'escape'));
  try {
    for (const path of ['/etc', outside, join(root, '..', basename(outside)), join(manyRoot, 'escape')]) {
      const res = await api(srv.baseUrl, '/api/import/scan', { method: 'POST', json: { path } });
      assert.equal(res.status, 400, path);
      assert.equal(res.body.error?.code, 'VALIDATION_FAILED', path);
      assert.match(res.body.error?.message ?? '', /must be inside a scan root \(import\.scan_roots\)/, path);
    }
    // A symlink inside a root is not followed by the walk either.
    await api(srv.baseUrl, '/api/import/scan', { method: 'POST', json: { path: manyRoot } });
    const done = await scanToEnd();
    assert.equal(done.files_found, 0);
    assert.equal((await api<QueueItem[]>(srv.baseUrl, '/api/queue?limit=0')).body.data!.length, 0);
  } finally {
    rmSync(join(manyRoot, 'escape'));
  }
});

test('a recursive scan queues each new NZB once (a byte-identical copy is skipped) and they import', async () => {
  const started = await api<ScanStatus>(srv.baseUrl, '/api/import/scan', { method: 'POST', json: { path: root } });
  assert.equal(started.status, 200);
  assert.equal(started.body.data?.path, root);
  const done = await scanToEnd();
  assert.equal(done.files_found, 4);
  assert.equal(done.files_added, 3);
  assert.equal(done.files_skipped, 1, 'the byte-identical copy is counted as skipped, not lost silently');
  assert.equal(done.last_error, null);
  const items = (await api<QueueItem[]>(srv.baseUrl, '/api/queue?limit=0')).body.data!;
  assert.deepEqual(items.map((i) => i.nzb_path).sort(), [
    join(root, 'Alpha.Movie.nzb'),
    join(root, 'sub', 'Beta.Show.S01E01.nzb'),
    join(root, 'sub', 'deeper', 'Gamma.Doc.NZB'),
  ]);
  for (const item of items) {
    const finished = await waitForItem(srv.baseUrl, item.id);
    assert.equal(finished.status, 'completed', finished.error_message ?? '');
    assert.match(finished.target_path ?? '', /^\/complete\/default\//);
  }
  const beta = await davGet(srv.baseUrl, '/complete/default/Beta.Show.S01E01/Beta.Show.S01E01.mkv');
  assert.equal(sha256(beta.body), sha256(contents.get('Beta.Show.S01E01.mkv')!));

  // A second scan finds the same files and adds none of them again.
  await api(srv.baseUrl, '/api/import/scan', { method: 'POST', json: { path: root } });
  const again = await scanToEnd();
  assert.equal(again.files_found, 4);
  assert.equal(again.files_added, 0);
  assert.equal(again.files_skipped, 4);
  assert.equal((await api<QueueItem[]>(srv.baseUrl, '/api/queue?limit=0')).body.data!.length, 3);
});

test('a scan can be cancelled: it stops between files', async () => {
  const many = manyRoot;
  try {
    for (let i = 0; i < 300; i++)
      writeFileSync(join(many, `n${String(i).padStart(3, '0')}.nzb`), `<nzb><!-- ${i} --></nzb>`);
    await api(srv.baseUrl, '/api/import/scan', { method: 'POST', json: { path: many } });
    const cancel = await api<ScanStatus>(srv.baseUrl, '/api/import/scan', { method: 'DELETE' });
    assert.equal(cancel.status, 200);
    assert.ok(['canceling', 'idle'].includes(cancel.body.data!.status));
    const done = await scanToEnd();
    assert.ok(done.files_added < 300, `added ${done.files_added}`);
    const busy = await api(srv.baseUrl, '/api/import/scan', { method: 'DELETE' });
    assert.equal((busy.body.data as ScanStatus).status, 'idle');
  } finally {
    rmSync(many, { recursive: true, force: true });
  }
});
