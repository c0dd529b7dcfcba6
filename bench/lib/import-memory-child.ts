/**
 * One import of a generated ~100 MB NZB (20 files x ~47,500 segments) in a process of its own, so RSS is this
 * import's alone: enqueue (compressed into LMDB, as an upload is), parse (Piscina worker), first articles, probe,
 * layouts, VFS write. Articles come from a synthetic client (the first and last article's yEnc facts of each file,
 * STAT always present): the network is not what is measured. Prints one JSON line.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ArticleClient } from '../../appliance/articles/index.js';
import { NzbImporter } from '../../appliance/importer/nzb-import.service.js';
import { LmdbQueueStore } from '../../appliance/importer/queue-lmdb.store.js';
import { QueueService } from '../../appliance/importer/queue.service.js';
import { memoryLogger } from '../../appliance/logging/logger.js';
import { ArticleMissingError, type DecodedArticle } from '../../appliance/nntp/index.js';
import { openStore } from '../../appliance/store/index.js';
import { LmdbTreeStore } from '../../appliance/vfs/tree.store.js';
import { VfsService } from '../../appliance/vfs/vfs.service.js';
import { createParseNzbPool } from '../../workers/parse-nzb.client.js';
import { generateLargeNzb, messageIdFor } from '../../tests/support/nzb/generate.js';
import { openTreeNodes } from '../../appliance/vfs/tree-nodes.store.js';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const mb = (n: number) => Math.round(n / 1024 / 1024);
const FILES = 20;
const ARTICLES = Number(process.env.SPOOL_BENCH_NZB_ARTICLES ?? 950_000);

/**
 * The NZB, written to `path`, and the article facts the synthetic client serves. The NZB waits on disk: the import
 * reads it into a fresh Buffer as an upload would (bytes arriving when the import starts), so the bench's own
 * copy neither counts in the baseline nor sits in V8's old generation as garbage no upload ever leaves behind.
 */
function fixture(path: string): { nzbBytes: number; facts: Map<string, DecodedArticle> } {
  const gen = generateLargeNzb({
    articles: ARTICLES,
    totalBytes: ARTICLES * 716_800,
    splitInto: FILES,
    name: 'Memory.Bench.Release.2024.1080p.mkv',
  });
  // Each file a plain .mkv of its own (20 files), not the .001 pieces of one.
  const bytes = Buffer.from(gen.xml.toString('latin1').replace(/\.mkv\.0(\d\d)/g, '.E$1.mkv'), 'latin1');
  writeFileSync(path, bytes);
  const facts = new Map<string, DecodedArticle>();
  let index = 0;
  for (const f of gen.files) {
    for (const [i, y] of [[index, f.first] as const, [index + f.articles - 1, f.last] as const]) {
      const name = y.name.replace(/\.mkv\.0(\d\d)$/, '.E$1.mkv');
      facts.set(`<${messageIdFor(i)}>`, {
        messageId: messageIdFor(i),
        providerId: 'synthetic',
        data: Buffer.alloc(16 * 1024),
        name,
        totalSize: y.size,
        part: y.part,
        totalParts: y.total,
        begin: y.begin,
        end: y.end,
        partSize: (y.end ?? 0) - (y.begin ?? 1) + 1,
        crc: '00000000',
        wireBytes: 0,
      } as unknown as DecodedArticle);
    }
    index += f.articles;
  }
  return { nzbBytes: bytes.length, facts };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'spool-bench-mem-'));
  const nzbPath = join(dir, 'upload.nzb');
  const { nzbBytes, facts } = fixture(nzbPath);
  const client: ArticleClient = {
    async body(id) {
      const a = facts.get(id.startsWith('<') ? id : `<${id}>`);
      if (!a) throw new ArticleMissingError(id);
      return a;
    },
    async stat() {
      return true;
    },
  };
  const store = openStore({ rootPath: dir });
  const parsePool = createParseNzbPool();
  const queue = new QueueService(new LmdbQueueStore(store), () => ({ maxRetries: 0 }));
  const vfs = new VfsService({
    tree: new LmdbTreeStore({ nodes: openTreeNodes(store), layouts: store.openDb('vfs-layouts') }),
    sidecarDir: join(dir, 'sidecars'),
  });
  const importer = new NzbImporter({
    queue,
    vfs,
    client,
    parsePool,
    settings: () => ({
      samplePercentage: 1,
      showArchiveVolumes: false,
      // The bench posts random bytes under media names.
      verifyMediaHeaders: false,
      archivePasswords: [],
      categoryDir: () => 'default',
      fileFilters: { allowedExtensions: [], filterSamples: true },
    }),
    logger: memoryLogger(),
  });
  // settle first: the fixture's strings are garbage, and freed backing stores reach the system a little later
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 200));
  }
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  // the upload: its bytes arrive, are queued (brotli into LMDB) and dropped, as the upload route does
  const item = await queue.enqueue({ nzb: await readFile(nzbPath), nzbPath: 'Memory.Bench.Release.2024.1080p.nzb' });
  const claimed = (await queue.claim())!;
  const result = await importer.run(claimed, new AbortController().signal);
  await queue.complete(item.id, result);
  const ms = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  // What the process keeps once the import is done: the idle parse worker exits after 1 s; then collect.
  for (let i = 0; i < 8; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 250));
  }
  const after = process.memoryUsage().rss;
  const files = [...vfs.walkFiles('/')].length;
  await parsePool.destroy();
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 200));
  }
  const afterWorker = process.memoryUsage().rss;
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  console.log(
    JSON.stringify({
      nzb_mb: mb(nzbBytes),
      articles: ARTICLES,
      files,
      baseline_mb: mb(baseline),
      peak_mb: mb(peak),
      after_mb: mb(after),
      after_worker_exit_mb: mb(afterWorker),
      seconds: +(ms / 1000).toFixed(1),
    }),
  );
}

await main();
