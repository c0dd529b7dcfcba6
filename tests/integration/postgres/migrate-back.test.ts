/**
 * `spool migrate` both ways (docs/deployment.md "Moving from PostgreSQL to LMDB"): a real Spool on LMDB imports NZBs
 * from the real INN, gets a sidecar through WebDAV and serves a read; every other domain gets records straight into
 * its LMDB stores (the repair ledger, patches, kept PAR2 files, quota marks, fit counts, a stream link); the real
 * command line copies it into an empty PostgreSQL database and from there into a new data dir. Every record of every
 * LMDB database, every patch blob and sidecar file comes back equal, and a node started on the new data dir serves
 * the files byte for byte to the same user.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test, type TestContext } from 'node:test';
import { LmdbLatencyStore } from '../../../appliance/diagnostics/latency.store.js';
import { LmdbFitStore } from '../../../appliance/providers/fit.store.js';
import { LmdbQuotaStateStore } from '../../../appliance/providers/quota.store.js';
import { LmdbPar2FileStore } from '../../../appliance/repair/par2-files.store.js';
import { DiskPatchStore } from '../../../appliance/repair/patch.store.js';
import { LmdbRepairLedger } from '../../../appliance/repair/repair-ledger.store.js';
import { openStore } from '../../../appliance/store/index.js';
import { LmdbTreeStore } from '../../../appliance/vfs/tree.store.js';
import { openTreeNodes } from '../../../appliance/vfs/tree-nodes.store.js';
import { openStreamLinkStore } from '../../../appliance/streamlinks/stream-links.store.js';
import type { ChildServer } from '../../support/child-server.js';
import { buildNzb } from '../../support/inn/poster.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { film } from '../../support/media/film.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';
import { dumpLmdb } from '../../support/store/lmdb-dump.js';
import { api, davGet, registerAdmin, sabAddFile, sha256, startNode, waitForItem } from './cluster.support.js';

const ROOT = resolve(import.meta.dirname, '../../..');
let server: PostgresServer;
let inn: InnServer;
const nodes: ChildServer[] = [];
const dirs: string[] = [];

before(async () => {
  [server, inn] = await Promise.all([startPostgres(), ensureInn()]);
});
after(async () => {
  for (const n of nodes) {
    await n.stop();
    n.removeDataDir();
  }
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  await server?.stop();
});

function migrate(t: TestContext, from: string, to: string): string {
  const cli = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'appliance/main.ts', 'migrate', '--from', from, '--to', to],
    {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 300_000,
    },
  );
  for (const line of cli.stdout.trim().split('\n')) t.diagnostic(line);
  assert.equal(cli.status, 0, `${cli.stdout}\n${cli.stderr}`);
  assert.match(cli.stdout, /^done: every domain copied and checked/m);
  return cli.stdout;
}

/** Records for the domains a short run of the app leaves empty, written through their own LMDB stores. */
async function fillTheRest(rootPath: string, dataDir: string, job: string): Promise<void> {
  const store = openStore({ rootPath });
  try {
    const ledger = new LmdbRepairLedger(store);
    await ledger.setBrake({
      engaged: true,
      reason: '40% of checks bad',
      changedAt: 1_700_000_000_000,
      releasedBy: null,
    });
    for (const result of ['done', 'failed'] as const)
      await ledger.addHistory(
        {
          at: 1_700_000_000_000,
          path: `${job}/x.mkv`,
          method: 'par2',
          instance: null,
          result,
          reason: null,
          manual: false,
        },
        100,
      );
    await ledger.markBroken({
      fingerprint: 'f'.repeat(40),
      path: `${job}/x.mkv`,
      at: 1_700_000_000_000,
      reason: 'crc',
    });
    const patches = new DiskPatchStore(store, join(dataDir, 'patches'));
    await patches.add('layout-1', `${job}/x.mkv`, [{ start: 1000, data: randomBytes(70_000) }]);
    const tree = new LmdbTreeStore({ nodes: openTreeNodes(store), layouts: store.openDb('vfs-layouts') });
    const file = tree.children(job).find((n) => n.layoutId)!;
    const layout = tree.layout(file.layoutId!)!;
    await new LmdbPar2FileStore(store).put(1, [{ name: 'x.par2', size: layout.size, layout }]);
    const quota = new LmdbQuotaStateStore(store);
    await quota.claim('p1', '80%');
    await quota.setBaseline('p1', { setting: 500, counted: 120 });
    const fit = new LmdbFitStore(store);
    await fit.addSamples({
      day: '2026-11-01',
      candidate: 'c1',
      band: '1-3y',
      ...{
        current_had: 5,
        current_missing: 1,
        candidate_had: 4,
        candidate_missing: 2,
        filled: 1,
        unfilled: 0,
        errors: 0,
      },
    });
    await fit.addWatched({ day: '2026-11-01', seconds: 3600 });
    await new LmdbLatencyStore(store).add('p1', 490_000, 42);
    const links = openStreamLinkStore(store);
    await links.secret();
    await links.put({ id: 'l1', path: job, folder: true, expiresAt: 0, createdAt: 1_700_000_000, createdBy: 'admin' });
  } finally {
    await store.close();
  }
}

test('LMDB -> PostgreSQL -> LMDB: every record, blob and sidecar equal; the files served byte for byte', async (t) => {
  const first = await startNode(inn, null);
  nodes.push(first);
  const apiKey = await registerAdmin(first);
  const files = [
    { name: 'Round.Trip.2024.mkv', data: film(2_000_000 + 11) },
    { name: 'Round.Trip.2024.srt', data: randomBytes(2_500) },
  ];
  const posted = [];
  for (const f of files) posted.push(await inn.postFile(f.name, f.data, { articleSize: 300_000 }));
  const nzb = buildNzb(posted, inn.group, 'Spool <p@spool.test>');
  const done = await waitForItem(first, apiKey, await sabAddFile(first, apiKey, 'Round.Trip.2024.nzb', nzb, 'movies'));
  assert.equal(done.status, 'completed', done.error_message ?? '');
  const job = done.target_path!;
  const sidecar = randomBytes(900);
  const put = await fetch(`${first.baseUrl}/webdav${job}/Round.Trip.2024.nfo`, {
    method: 'PUT',
    headers: { 'x-api-key': apiKey },
    body: sidecar,
  });
  assert.equal(put.status, 201, await put.text());
  assert.equal(sha256((await davGet(first, apiKey, `${job}/${files[0]!.name}`)).body), sha256(files[0]!.data));
  assert.equal(await first.stop(), 0);
  await fillTheRest(join(first.dataDir, 'metadata'), first.dataDir, job);

  const url = await server.createDatabase();
  migrate(t, first.dataDir, url);
  const back = mkdtempSync(join(tmpdir(), 'spool-migrate-back-'));
  dirs.push(back);
  const out = migrate(t, url, back);
  for (const scope of [
    'auth',
    'health',
    'tree',
    'tree sidecars',
    'queue',
    'repair',
    'sabnzbd',
    'streams',
    'providers',
    'quota',
    'streamlinks',
    'latency',
  ])
    assert.match(out, new RegExp(`^${scope}: \\d+ records?.*checked$`, 'm'), scope);

  const [before, after] = [await dumpLmdb(join(first.dataDir, 'metadata')), await dumpLmdb(join(back, 'metadata'))];
  assert.deepEqual([...after.keys()].sort(), [...before.keys()].sort(), 'the same databases');
  for (const [name, records] of before) {
    assert.deepEqual(comparable(name, after.get(name)!), comparable(name, records), `database ${name}`);
  }
  for (const name of [
    'health-records',
    'queue-items',
    'vfs-nodes',
    'vfs-layouts',
    'repair-patches',
    'users',
    'sessions',
  ])
    assert.ok((before.get(name)?.length ?? 0) > 0, `${name} had records to copy`);
  for (const folder of ['patches', 'sidecars']) {
    const names = readdirSync(join(first.dataDir, folder)).sort();
    assert.ok(names.length > 0, `${folder} had files`);
    assert.deepEqual(readdirSync(join(back, folder)).sort(), names, folder);
    for (const n of names)
      assert.ok(
        readFileSync(join(back, folder, n)).equals(readFileSync(join(first.dataDir, folder, n))),
        `${folder}/${n}`,
      );
  }

  const moved = await startNode(inn, null, { dataDir: back });
  nodes.push(moved);
  for (const f of files)
    assert.equal(sha256((await davGet(moved, apiKey, `${job}/${f.name}`)).body), sha256(f.data), f.name);
  assert.ok((await davGet(moved, apiKey, `${job}/Round.Trip.2024.nfo`)).body.equals(sidecar), 'the sidecar');
  const login = await api(moved.baseUrl, '/api/auth/login', {
    method: 'POST',
    json: { username: 'admin', password: 'admin-password' },
  });
  assert.equal(login.status, 200, 'the user came back');
});

/**
 * What may differ after the trip, and why: a quota mark's claim time (PostgreSQL keeps the mark, not when it was
 * claimed, so LMDB stamps the copy's time) and the tree's write count (`vfs-meta`: PostgreSQL counts its own log,
 * which a copy into it starts empty), and a count kept at 0 (a status once used, now empty) that the copy, which
 * counts what is there, never writes: both read 0.
 */
function comparable(name: string, records: { key: unknown; value: unknown }[]): unknown {
  if (name === 'provider-quota')
    return records.map((r) => ({ key: r.key, value: (r.value as { at?: number }).at ? 'claimed' : r.value }));
  if (name === 'vfs-meta') return records.filter((r) => r.key !== 'writes');
  if (name === 'queue-index' || name === 'health-index') return records.filter((r) => r.value !== 0);
  return records;
}
