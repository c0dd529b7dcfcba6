/**
 * The virtual tree's hot reads (npm run bench -- tree): what FUSE getattr/lookup and WebDAV PROPFIND ask on every
 * call, in process on a real LMDB store (tests/support/vfs/memory.ts `tempVfs`): `stat` of a file, `list` of a job
 * folder of 2,000 files (a PROPFIND depth 1, a readdir), and the file's layout (an open). Nanoseconds per call, the
 * median of several runs of a fixed number of calls. The file uses only `tempVfs` and VfsService's read methods, so
 * the same file runs unchanged in a checkout from before the storage ports (docs/performance.md, "Storage ports:
 * before/after").
 */
import { performance } from 'node:perf_hooks';
import { memoryArticles, tempVfs } from '../tests/support/vfs/memory.js';

const FILES = 2000;
const RUNS = 7;

function nsPerCall(calls: number, fn: (i: number) => void): number {
  for (let i = 0; i < calls; i++) fn(i); // warm-up
  const times: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t = performance.now();
    for (let i = 0; i < calls; i++) fn(i);
    times.push(((performance.now() - t) * 1e6) / calls);
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
}

export async function run(log: (m: string) => void): Promise<string> {
  const t = tempVfs();
  try {
    const { layout } = memoryArticles(Buffer.alloc(64 * 700_000), 700_000);
    log(`writing a job of ${FILES} files`);
    const files = Array.from({ length: FILES }, (_, i) => ({ name: `file.${i}.mkv`, size: layout.size, layout }));
    const { dir } = await t.vfs.addJob({ category: 'tv', jobName: 'Bench.Job', files });
    const paths = files.map((f) => `${dir}/${f.name}`);
    let sink = 0;
    const stat = nsPerCall(200_000, (i) => (sink += t.vfs.stat(paths[i % FILES]!)!.size));
    const list = nsPerCall(200, () => (sink += t.vfs.list(dir).length));
    const node = t.vfs.stat(paths[0]!)!;
    const open = nsPerCall(20_000, () => (sink += t.vfs.layout(node).size));
    log(`checksum ${sink}`);
    return [
      `Tree of one job of ${FILES} files (64 articles each) in LMDB; median of ${RUNS} runs.`,
      '',
      '| read | ns per call |',
      '|---|---|',
      `| stat of a file (FUSE getattr/lookup, every WebDAV request) | ${stat.toFixed(0)} |`,
      `| list of the ${FILES}-file job folder (PROPFIND depth 1, readdir) | ${list.toFixed(0)} |`,
      `| layout of a file (open) | ${open.toFixed(0)} |`,
    ].join('\n');
  } finally {
    t.close();
  }
}
