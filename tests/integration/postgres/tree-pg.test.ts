import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { memoryLogger } from '../../../appliance/logging/logger.js';
import { openStore, type Store } from '../../../appliance/store/index.js';
import { migratePg, openPgDb, type PgDb } from '../../../appliance/store/pg/index.js';
import { openPgSidecars } from '../../../appliance/vfs/sidecar-pg.store.js';
import { openPgTree, type PgTreeStore } from '../../../appliance/vfs/tree-pg.store.js';
import { LmdbTreeStore } from '../../../appliance/vfs/tree.store.js';
import type { VfsNode } from '../../../appliance/vfs/types.js';
import { copySidecarsToPg, copyTreeToPg } from '../../../appliance/vfs/vfs.copy.js';
import { VFS_PG_MIGRATIONS } from '../../../appliance/vfs/vfs-pg.migrations.js';
import { VfsService } from '../../../appliance/vfs/vfs.service.js';
import { realisticLayout } from '../../support/nzb/realistic-layouts.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';
import { memoryArticles } from '../../support/vfs/memory.js';
import { treePortCases } from '../../support/vfs/tree-port-cases.js';
import { waitUntil } from '../../support/wait.js';
import { openTreeNodes } from '../../../appliance/vfs/tree-nodes.store.js';

let server: PostgresServer;
before(async () => (server = await startPostgres()));
after(() => server?.stop());

/** One node: its own LMDB env in a temp dir, its replica of the tree, a VfsService over it. */
interface Node {
  tree: PgTreeStore;
  vfs: VfsService;
  local: Store;
  dir: string;
  db: PgDb;
  /** Paths the node was told another node changed. */
  heard: string[];
  close(keepDir?: boolean): Promise<void>;
}

async function node(url: string, dir = mkdtempSync(join(tmpdir(), 'spool-tree-pg-'))): Promise<Node> {
  const db = await openPgDb(url);
  await migratePg(db, { tree: VFS_PG_MIGRATIONS });
  const local = openStore({ rootPath: dir });
  const logger = memoryLogger();
  // No poll within a test: a change must arrive by its notification.
  const tree = await openPgTree(db, local, logger, { pollMs: 3_600_000 });
  const heard: string[] = [];
  tree.onRemoteChange((paths) => heard.push(...paths));
  const vfs = new VfsService({
    tree,
    sidecarDir: join(dir, 'sidecars'),
    sidecars: openPgSidecars(db, logger, (sql) => tree.beforeCommit(sql)),
  });
  return {
    tree,
    vfs,
    local,
    dir,
    db,
    heard,
    async close(keepDir = false) {
      await tree.close();
      await db.close();
      await local.close();
      if (!keepDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until `check` holds (tests/support/wait.ts: the cap only ends a hung run, a notification lost for good). */
async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  await waitUntil(what, check, { everyMs: 25 });
}

const { layout } = memoryArticles(Buffer.alloc(1000, 7), 100);

const file = (path: string, extra: Partial<VfsNode> = {}): VfsNode => ({
  path,
  name: path.slice(path.lastIndexOf('/') + 1),
  type: 'file',
  size: 1,
  createdAt: 1,
  modifiedAt: 1,
  etag: '"e"',
  ...extra,
});

test('a job written through one node lists and reads on the other once notified; moves and deletes follow', async () => {
  const url = await server.createDatabase();
  const [a, b] = [await node(url), await node(url)];
  try {
    const big = realisticLayout({ articles: 5_000, style: 'random-hex' });
    await a.vfs.addJob({
      category: 'movies',
      jobName: 'Some.Film.2024',
      files: [
        { name: 'film.mkv', size: big.size, layout: big },
        { name: 'Subs/en.srt', size: 1000, layout },
      ],
    });
    assert.ok(a.vfs.stat('/complete/movies/Some.Film.2024/film.mkv'), 'the writer reads its write at once');
    await until(() => b.vfs.stat('/complete/movies/Some.Film.2024/film.mkv') !== undefined, 'b sees the job');
    const film = b.vfs.stat('/complete/movies/Some.Film.2024/film.mkv')!;
    assert.deepEqual(film, a.vfs.stat('/complete/movies/Some.Film.2024/film.mkv'));
    assert.deepEqual(b.vfs.layout(film), big);
    assert.deepEqual(
      b.vfs.list('/complete/movies/Some.Film.2024').map((n) => n.name),
      ['Subs', 'film.mkv'],
    );
    assert.equal(b.tree.writes(), a.tree.writes(), 'the same global sequence on both');
    await until(() => b.heard.includes('/complete/movies/Some.Film.2024/film.mkv'), 'b is told what changed');
    assert.equal(a.heard.length, 0, 'a is not told of its own writes');

    await b.vfs.transfer('/complete/movies/Some.Film.2024', '/complete/movies/Renamed', {
      mode: 'move',
      overwrite: false,
    });
    await until(() => a.vfs.stat('/complete/movies/Renamed/film.mkv') !== undefined, 'a sees the move');
    assert.equal(a.vfs.stat('/complete/movies/Some.Film.2024'), undefined);
    assert.deepEqual(
      a.vfs.list('/complete/movies').map((n) => n.name),
      ['Renamed'],
      'the listing a cached before the move is dropped',
    );
    await a.vfs.remove('/complete/movies/Renamed/Subs');
    await until(() => b.vfs.stat('/complete/movies/Renamed/Subs') === undefined, 'b sees the delete');
    assert.deepEqual(
      b.vfs.list('/complete/movies/Renamed').map((n) => n.name),
      ['film.mkv'],
    );
    assert.equal(
      b.vfs.layout(b.vfs.stat('/complete/movies/Renamed/film.mkv')!).segments.length,
      5_000,
      'the moved file keeps its layout',
    );
  } finally {
    await a.close();
    await b.close();
  }
});

test('a write reads its own changes: get, children, subtree and layout see the overlay', async () => {
  const a = await node(await server.createDatabase());
  try {
    await a.vfs.mkdir('/d');
    await a.tree.write(() => a.tree.put(file('/d/old')));
    const seen = await a.tree.write(() => {
      a.tree.put(file('/d/new'));
      a.tree.delete('/d/old');
      a.tree.put({ ...file('/d/sub'), type: 'directory' });
      a.tree.put(file('/d/sub/x', { layoutId: 'L1' }));
      a.tree.putLayout('L1', layout);
      return {
        get: a.tree.get('/d/new')?.path,
        gone: a.tree.get('/d/old'),
        children: a.tree.children('/d').map((n) => n.name),
        subtree: a.tree.subtree('/d').map((n) => n.path),
        layout: a.tree.layout('L1'),
      };
    });
    assert.deepEqual(seen, {
      get: '/d/new',
      gone: undefined,
      children: ['new', 'sub'],
      subtree: ['/d', '/d/new', '/d/sub', '/d/sub/x'],
      layout,
    });
    assert.deepEqual(
      a.tree.children('/d').map((n) => n.name),
      ['new', 'sub'],
    );
    assert.deepEqual(a.tree.layout('L1'), layout);
    assert.throws(() => a.tree.put(file('/d/outside')), /only inside TreeStore.write/);
  } finally {
    await a.close();
  }
});

test('a write that throws, or that PostgreSQL refuses, changes nothing anywhere', async () => {
  const url = await server.createDatabase();
  const [a, b] = [await node(url), await node(url)];
  try {
    await a.vfs.mkdir('/d');
    await until(() => b.vfs.stat('/d') !== undefined, 'b sees /d');
    const writes = a.tree.writes();
    const rows = async () => Number((await a.db.query('SELECT count(*) AS n FROM vfs_nodes')).rows[0]!.n);
    const before = await rows();
    await assert.rejects(
      a.tree.write(() => {
        a.tree.put(file('/d/half'));
        throw new Error('the action failed');
      }),
      /the action failed/,
    );
    // A NUL in a path is refused by PostgreSQL's text: the transaction fails after the action ran.
    await assert.rejects(a.tree.write(() => a.tree.put(file('/d/bad\u0000name'))));
    await a.vfs.mkdir('/after'); // a later write lands, and b catching up on it brings nothing of the failed ones
    await until(() => b.vfs.stat('/after') !== undefined, 'b sees /after');
    for (const n of [a, b]) {
      assert.equal(n.vfs.stat('/d/half'), undefined);
      assert.equal(n.tree.get('/d/bad\u0000name'), undefined);
      assert.deepEqual(n.vfs.list('/d'), []);
      assert.equal(n.tree.writes(), writes + 1);
    }
    assert.equal(await rows(), before + 1);
  } finally {
    await a.close();
    await b.close();
  }
});

test('writes from two nodes at once serialise: no update is lost', async () => {
  const url = await server.createDatabase();
  const [a, b] = [await node(url), await node(url)];
  try {
    await a.tree.write(() => a.tree.put(file('/counter', { size: 0 })));
    const bump = (n: Node) =>
      n.tree.write(() => {
        const c = n.tree.get('/counter')!;
        n.tree.put({ ...c, size: c.size + 1 });
      });
    await Promise.all(Array.from({ length: 15 }, () => [bump(a), bump(b)]).flat());
    await until(() => a.tree.get('/counter')?.size === 30 && b.tree.get('/counter')?.size === 30, 'both at 30');
    const row = await a.db.query<{ node: VfsNode }>(`SELECT node FROM vfs_nodes WHERE path = '/counter'`);
    assert.equal(row.rows[0]!.node.size, 30);
    assert.equal(a.tree.writes(), b.tree.writes());
  } finally {
    await a.close();
    await b.close();
  }
});

test('a node that was away past the pruned log, and a fresh node, are rebuilt from the tables', async () => {
  const url = await server.createDatabase();
  const a = await node(url);
  let b = await node(url);
  let c: Node | undefined;
  try {
    await a.vfs.addJob({ category: 'tv', jobName: 'Show.S01E01', files: [{ name: 'e1.mkv', size: 1000, layout }] });
    await a.vfs.addJob({ category: 'tv', jobName: 'Show.S01E02', files: [{ name: 'e2.mkv', size: 1000, layout }] });
    await until(() => b.vfs.stat('/complete/tv/Show.S01E02/e2.mkv') !== undefined, 'b in step');
    await b.close(true);
    // While b is away: one job removed, another added, a layout of a removed job dropped; the log pruned.
    await a.vfs.remove('/complete/tv/Show.S01E01');
    await a.vfs.addJob({ category: 'tv', jobName: 'Show.S01E03', files: [{ name: 'e3.mkv', size: 1000, layout }] });
    assert.ok((await a.tree.pruneLog(0, 0)) > 0, 'log rows pruned');
    b = await node(url, b.dir);
    c = await node(url);
    const tree = (n: Node) => [...n.vfs.walkFiles('/')].map((f) => [f.path, f.layoutId && n.tree.layout(f.layoutId)]);
    for (const n of [b, c]) {
      assert.deepEqual(tree(n), tree(a));
      assert.equal(n.vfs.stat('/complete/tv/Show.S01E01'), undefined);
      assert.equal(n.tree.writes(), a.tree.writes());
    }
    const ids = (s: Store) => [...s.openDb('vfs-layouts').getKeys({})].sort();
    assert.deepEqual(ids(b.local), ids(a.local), 'the dropped layout left the returning replica too');
    await a.vfs.mkdir('/later');
    await until(() => b.vfs.stat('/later') !== undefined && c!.vfs.stat('/later') !== undefined, 'rebuilt follow');

    // A running node that missed writes whose log rows were pruned (no notification reached it) rebuilds when it
    // next catches up, and announces the paths that differ so its kernel cache of them is dropped.
    await a.db.query(`INSERT INTO vfs_nodes (path, parent, name, node) VALUES ('/quiet', '/', 'quiet', $1)`, [
      JSON.stringify(file('/quiet')),
    ]);
    await a.db.query(`DELETE FROM vfs_nodes WHERE path = '/later'`);
    await a.db.query(`INSERT INTO vfs_changes (paths, layouts) VALUES ('{}', '{}')`);
    assert.ok((await a.tree.pruneLog(0, 0)) > 0);
    b.heard.length = 0;
    await b.tree.sync();
    assert.ok(b.tree.get('/quiet'), 'the missed node arrived');
    assert.equal(b.tree.get('/later'), undefined, 'the missed delete too');
    assert.deepEqual([...b.heard].sort(), ['/later', '/quiet'], 'only what differs');
  } finally {
    await a.close();
    await b.close();
    await c?.close();
  }
});

test('a node whose own LMDB tree is not in an empty PostgreSQL refuses to start rather than drop it', async () => {
  const url = await server.createDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'spool-tree-pg-lmdb-'));
  const local = openStore({ rootPath: dir });
  const lmdb = new LmdbTreeStore({ nodes: openTreeNodes(local), layouts: local.openDb('vfs-layouts') });
  await lmdb.write(() => lmdb.put({ ...file('/mine'), type: 'directory' }));
  await local.close();
  const db = await openPgDb(url);
  try {
    await assert.rejects(node(url, dir), /not in PostgreSQL .*spool migrate/);
    assert.ok(openTreeNodes(openStore({ rootPath: dir })).getKeysCount() > 0, 'the local tree is still there');
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a sidecar written through one node reads back through the other, copies too', async () => {
  const url = await server.createDatabase();
  const [a, b] = [await node(url), await node(url)];
  try {
    await a.vfs.mkdir('/s');
    await a.vfs.writeSidecar('/s/en.srt', Buffer.from('1\n00:00 --> 00:01\nhi\n'));
    await a.vfs.transfer('/s/en.srt', '/s/copy.srt', { mode: 'copy', overwrite: false });
    await until(() => b.vfs.stat('/s/copy.srt') !== undefined, 'b sees the sidecars');
    for (const p of ['/s/en.srt', '/s/copy.srt'])
      assert.equal((await b.vfs.sidecars.read(b.vfs.stat(p)!.sidecarId!)).toString(), '1\n00:00 --> 00:01\nhi\n');
    await a.vfs.remove('/s/en.srt');
    await assert.rejects(b.vfs.sidecars.read(a.vfs.stat('/s/copy.srt')!.sidecarId! + '0'), { code: 'ENOENT' });
  } finally {
    await a.close();
    await b.close();
  }
});

test("a sidecar's copy lands in the same transaction as the copied entry, so no node sees the entry before its bytes", async () => {
  const url = await server.createDatabase();
  const [a, b] = [await node(url), await node(url)];
  const locker = new pg.Client({ connectionString: url });
  await locker.connect();
  try {
    await a.vfs.mkdir('/s');
    await a.vfs.writeSidecar('/s/en.srt', Buffer.from('subtitle'));
    // Inserts into vfs_sidecars wait while this lock is held (reads do not).
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE vfs_sidecars IN EXCLUSIVE MODE');
    const copied = a.vfs.transfer('/s/en.srt', '/s/copy.srt', { mode: 'copy', overwrite: false });
    const waiter = async () =>
      (
        await locker.query<{ pid: number }>(
          "SELECT pid FROM pg_locks WHERE NOT granted AND relation = 'vfs_sidecars'::regclass",
        )
      ).rows[0]?.pid;
    await until(async () => (await waiter()) !== undefined, 'the copy waits for the lock');
    const held = await locker.query<{ n: string }>(
      "SELECT count(*) AS n FROM pg_locks WHERE pid = $1 AND locktype = 'advisory' AND granted",
      [await waiter()],
    );
    assert.equal(Number(held.rows[0]?.n), 1, "the waiting copy runs inside the tree write's transaction");
    assert.equal(b.vfs.stat('/s/copy.srt'), undefined, 'the entry is not committed while its bytes wait');
    await locker.query('COMMIT');
    await copied;
    await until(() => b.vfs.stat('/s/copy.srt') !== undefined, 'b sees the copy');
    assert.equal((await b.vfs.sidecars.read(b.vfs.stat('/s/copy.srt')!.sidecarId!)).toString(), 'subtitle');
  } finally {
    await locker.end();
    await a.close();
    await b.close();
  }
});

test('an LMDB tree copied into PostgreSQL (spool migrate) is what a new node serves, sidecars too', async () => {
  const url = await server.createDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'spool-tree-pg-copy-'));
  const store = openStore({ rootPath: dir });
  const sidecarDir = join(dir, 'sidecars');
  const lmdb = new VfsService({
    tree: new LmdbTreeStore({ nodes: openTreeNodes(store), layouts: store.openDb('vfs-layouts') }),
    sidecarDir,
  });
  const big = realisticLayout({ articles: 3_000, style: 'timestamp' });
  for (let i = 0; i < 30; i++)
    await lmdb.addJob({
      category: 'tv',
      jobName: `Show.S01E${String(i).padStart(2, '0')}`,
      files: [{ name: 'ep.mkv', size: big.size, layout: big, queueItemId: i }],
    });
  await lmdb.writeSidecar('/complete/tv/Show.S01E01/ep.en.srt', Buffer.from('subtitle'));
  await lmdb.patchDeadProps('/complete/tv/Show.S01E02/ep.mkv', [['{DAV:}x', '<v/>']]);
  const db = await openPgDb(url);
  let fresh: Node | undefined;
  try {
    await migratePg(db, { tree: VFS_PG_MIGRATIONS });
    const lines: string[] = [];
    const reports = [
      ...(await copyTreeToPg(store, db, (m) => lines.push(m))),
      ...(await copySidecarsToPg(store, sidecarDir, db, (m) => lines.push(m))),
    ];
    assert.deepEqual(
      reports.map((r) => [r.scope, r.records]),
      [
        ['tree', openTreeNodes(store).getKeysCount() + 30],
        ['tree sidecars', 1],
      ],
    );
    fresh = await node(url);
    // As JSON: a field LMDB keeps as `undefined` (sourceNzbPath of a job without one) is absent in PostgreSQL.
    const files = (v: VfsService) =>
      JSON.parse(JSON.stringify([...v.walkFiles('/')].map((f) => [f, f.layoutId && v.layout(f)]))) as unknown;
    assert.deepEqual(files(fresh.vfs), files(lmdb));
    assert.equal(fresh.vfs.stat('/complete/tv/Show.S01E02/ep.mkv')?.deadProps?.['{DAV:}x'], '<v/>');
    const srt = fresh.vfs.stat('/complete/tv/Show.S01E01/ep.en.srt')!;
    assert.equal((await fresh.vfs.sidecars.read(srt.sidecarId!)).toString(), 'subtitle');
  } finally {
    await fresh?.close();
    await db.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

treePortCases('PostgreSQL', async () => {
  const n = await node(await server.createDatabase());
  return { tree: n.tree, vfs: n.vfs, close: () => n.close() };
});
