import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { normalizeVfsPath, decodeUrlPath } from './path.js';
import { memoryArticles, tempVfs } from '../../tests/support/vfs/memory.js';
import { fileMeta } from './file-meta.js';
import type { FileHealth } from './types.js';

const t = tempVfs();
after(() => t.close());
const { layout } = memoryArticles(Buffer.alloc(2500, 7), 1000);

test('addJob creates /complete/<category>/<job>/<file> with its layout', async () => {
  const res = await t.vfs.addJob({
    category: 'tv',
    jobName: 'Show.S01E01',
    files: [{ name: 'show.mkv', size: 2500, layout, sourceNzbPath: '/nzb/x.nzb' }],
  });
  assert.deepEqual(res.files, ['/complete/tv/Show.S01E01/show.mkv']);
  assert.deepEqual(
    t.vfs.list('/complete/tv').map((n) => n.name),
    ['Show.S01E01'],
  );
  const node = t.vfs.requireNode('/complete/tv/Show.S01E01/show.mkv');
  assert.equal(node.size, 2500);
  assert.equal(t.vfs.layout(node).segments.length, 3);
  const meta = fileMeta(t.vfs, node.path, { unavailable: new Set(['a1@test']) });
  assert.equal(meta.segment_count, 3);
  assert.equal(meta.available_segments, 2);
  assert.equal(meta.segments[1]!.available, false);
  assert.deepEqual(meta.segments[2], {
    message_id: 'a2@test',
    segment_size: 500,
    start_offset: 2000,
    end_offset: 2499,
    available: true,
  });
  await assert.rejects(t.vfs.addJob({ category: 'tv', jobName: 'Show.S01E01', files: [] }), /already exists/);
});

test('addJob refuses layouts that do not tile the file and names that escape the job', async () => {
  await assert.rejects(
    t.vfs.addJob({ category: 'tv', jobName: 'Bad', files: [{ name: 'x', size: 2600, layout }] }),
    /layout is of 2500 bytes, the file of 2600/,
  );
  await assert.rejects(
    t.vfs.addJob({ category: 'tv', jobName: 'Bad', files: [{ name: '../../x', size: 2500, layout }] }),
    /traversal/,
  );
  await assert.rejects(t.vfs.addJob({ category: '..', jobName: 'Bad', files: [] }), /traversal/);
  assert.equal(t.vfs.stat('/complete/tv/Bad'), undefined, 'nothing half-written');
});

test('addJob builds a deferred layout once, stores what it built, and undoes every layout when one is bad', async () => {
  let builds = 0;
  const deferred = () => (builds++, structuredClone(layout));
  await t.vfs.addJob({ category: 'd', jobName: 'Lazy', files: [{ name: 'a.mkv', size: 2500, layout: deferred }] });
  assert.equal(builds, 1, 'built once: checked and stored from the same build');
  assert.deepEqual(t.vfs.layout(t.vfs.requireNode('/complete/d/Lazy/a.mkv')), layout);

  const layoutsBefore = t.root.openDB({ name: 'vfs-layouts' }).getKeysCount();
  const badSecond = () => ({ ...layout, size: 2400 });
  await assert.rejects(
    t.vfs.addJob({
      category: 'd',
      jobName: 'Half',
      files: [
        { name: 'good.mkv', size: 2500, layout: deferred },
        { name: 'bad.mkv', size: 2400, layout: badSecond },
      ],
    }),
    /bad\.mkv/,
  );
  assert.equal(t.vfs.stat('/complete/d/Half'), undefined, 'no directory');
  assert.equal(t.root.openDB({ name: 'vfs-layouts' }).getKeysCount(), layoutsBefore, 'no layout left behind');
});

test('corrupted files are hidden unless asked', async () => {
  await t.vfs.addJob({
    category: 'movies',
    jobName: 'M',
    files: [
      { name: 'a.mkv', size: 2500, layout },
      { name: 'b.mkv', size: 2500, layout },
    ],
  });
  t.verdicts.corruptedPaths.add('/complete/movies/M/b.mkv'); // the health domain's verdict: the tree has no copy
  assert.deepEqual(
    t.vfs.list('/complete/movies/M').map((n) => n.name),
    ['a.mkv'],
  );
  assert.deepEqual(
    t.vfs.list('/complete/movies/M', { showCorrupted: true }).map((n) => n.name),
    ['a.mkv', 'b.mkv'],
  );
});

test('move and copy are metadata only; remove reports every removed path', async () => {
  await t.vfs.addJob({ category: 'c', jobName: 'J', files: [{ name: 'sub/f.bin', size: 2500, layout }] });
  await t.vfs.transfer('/complete/c/J', '/complete/c/K', { mode: 'copy', overwrite: false });
  await t.vfs.transfer('/complete/c/J', '/complete/c/L', { mode: 'move', overwrite: false });
  assert.equal(t.vfs.stat('/complete/c/J'), undefined);
  assert.equal(t.vfs.stat('/complete/c/L/sub/f.bin')?.size, 2500);
  const removed: string[][] = [];
  t.events.on('file.removed', (e) => removed.push(e.paths));
  await t.vfs.remove('/complete/c/K');
  assert.deepEqual(removed[0], ['/complete/c/K/sub/f.bin', '/complete/c/K/sub', '/complete/c/K']);
  assert.equal(
    t.vfs.layout(t.vfs.requireNode('/complete/c/L/sub/f.bin')).segments.length,
    3,
    'copy had its own layout',
  );
  await assert.rejects(
    t.vfs.transfer('/complete/c/L', '/complete/c/L/sub/x', { mode: 'move', overwrite: true }),
    /into itself/,
  );
});

test('sidecars are stored on disk and read back', async () => {
  await t.vfs.writeSidecar('/complete/c/L/sub/f.srt', Buffer.from('1\n00:00 --> 00:01\nhi\n'));
  const n = t.vfs.requireNode('/complete/c/L/sub/f.srt');
  assert.equal((await t.vfs.sidecars.read(n.sidecarId as string)).toString(), '1\n00:00 --> 00:01\nhi\n');
  await assert.rejects(t.vfs.writeSidecar('/complete/c/L/sub/f.bin', Buffer.from('x')), /imported file/);
});

test('path normalisation refuses traversal and tricks', () => {
  assert.equal(normalizeVfsPath('//complete///tv/'), '/complete/tv');
  for (const bad of ['/a/../b', '/a/./b', '/a\\b', '/a\u0000b', '..'])
    assert.throws(() => normalizeVfsPath(bad), /Invalid path/);
  assert.equal(decodeUrlPath('/complete/a%20b'), '/complete/a b');
  for (const bad of ['/a/%2e%2e/b', '/a/%2E%2E', '/a%2fb', '/a%00', '/a%5cb', '/%zz'])
    assert.throws(() => decodeUrlPath(bad), /Invalid path/);
});

test('file info status: known missing articles first, then the health check, then the import probe', async () => {
  const probe = { at: Date.now(), samplePercentage: 5 };
  const { files } = await t.vfs.addJob({
    category: 'movies',
    jobName: 'Status',
    files: [
      { name: 'probed.mkv', size: 2500, layout, probe },
      { name: 'unknown.mkv', size: 2500, layout },
    ],
  });
  const [probed, unknown] = files as [string, string];
  // What the health domain knows of a file (its record's verdict and unavailable articles) comes in as FileHealth.
  const status = (p: string, health: FileHealth = {}) => fileMeta(t.vfs, p, health).status;
  const ids = (...list: string[]) => new Set(list);
  assert.equal(status(probed), 'healthy', 'pending, but its import probe found every sampled article');
  assert.equal(status(unknown), 'other', 'pending and nothing known');
  assert.equal(status(unknown, { unavailable: ids() }), 'other', 'checking: no verdict yet');
  assert.equal(status(unknown, { verdict: 'healthy' }), 'healthy');
  assert.equal(
    status(unknown, { verdict: 'healthy', unavailable: ids('a2@test') }),
    'partial',
    'a failed read after a healthy check is news',
  );
  const none = { verdict: 'healthy', unavailable: ids('a0@test', 'a1@test', 'a2@test') } as const;
  assert.equal(fileMeta(t.vfs, unknown, none).available_segments, 0);
  assert.equal(status(unknown, none), 'corrupted');
  assert.deepEqual(
    fileMeta(t.vfs, unknown, { verdict: 'healthy', unavailable: ids() }).segments.map((s) => s.available),
    [true, true, true],
    'a healthy check clears old failures',
  );
  const partial = { verdict: 'partial', unavailable: ids('a0@test') } as const;
  assert.equal(status(unknown, partial), 'partial');
  assert.equal(fileMeta(t.vfs, unknown, partial).available_segments, 2);
  assert.equal(status(probed, { verdict: 'corrupted' }), 'corrupted', 'a repair triggered keeps the verdict');
});
