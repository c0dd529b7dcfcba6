/**
 * `npm run bench -- store`: what the metadata store costs per article (issue 24; docs/performance.md "Metadata
 * store size").
 *
 * 1. Packed layouts alone, for generated posted files in each message-id style (tests/support/nzb/
 *    realistic-layouts.ts): bytes per article of the stored record, beside the msgpack record stored before, the NZB's
 *    own XML and the brotli'd NZB the queue keeps; encode time and decode time (a read decodes once per open).
 * 2. The whole LMDB environment after a real import (queue, importer with a synthetic article client, VFS, health
 *    records) of 20 NZBs in mixed styles: per database and per article (bench/lib/store-size.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Packr } from 'msgpackr';
import { stringify } from 'yaml';
import type { ArticleClient } from '../appliance/articles/index.js';
import { systemClock } from '../appliance/clock/clock.js';
import { ConfigService } from '../appliance/config/index.js';
import { createHealth, openHealthStore } from '../appliance/health/index.js';
import { NzbImporter } from '../appliance/importer/nzb-import.service.js';
import { packNzb } from '../appliance/importer/nzb-pack.js';
import { LmdbQueueStore } from '../appliance/importer/queue-lmdb.store.js';
import { QueueService } from '../appliance/importer/queue.service.js';
import { decodeLayout, encodeLayout, type FileLayout } from '../appliance/layout/index.js';
import { memoryLogger } from '../appliance/logging/logger.js';
import { ArticleMissingError, type DecodedArticle } from '../appliance/nntp/index.js';
import { layoutToNzbFiles, toNzbXml } from '../appliance/nzb/index.js';
import { openStore } from '../appliance/store/index.js';
import { LmdbTreeStore } from '../appliance/vfs/tree.store.js';
import { VfsService } from '../appliance/vfs/vfs.service.js';
import { createParseNzbPool } from '../workers/parse-nzb.client.js';
import { ID_STYLES, realisticLayout, type IdStyle } from '../tests/support/nzb/realistic-layouts.js';
import { storeFigureRows, storeFigures } from './lib/store-size.js';
import { openTreeNodes } from '../appliance/vfs/tree-nodes.store.js';

const nzbXml = (layout: FileLayout, name: string) =>
  toNzbXml(layoutToNzbFiles(layout, { ...layout.posts![0]!, subject: `"${name}" yEnc (1/${layout.segments.length})` }));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function layoutsAlone(log: (m: string) => void): Promise<string[]> {
  const rows = [
    '| ids | articles | packed B/article | msgpack record (before) | NZB XML | NZB brotli (queue) | encode | decode (CPU) | msgpack decode (CPU) |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const msgpack = new Packr({ structures: [] });
  for (const style of ID_STYLES) {
    for (const n of [1_000, 10_000, 50_000]) {
      const layout = realisticLayout({ articles: n, style, seed: n });
      const t0 = performance.now();
      const packed = encodeLayout(layout);
      const encodeMs = performance.now() - t0;
      // CPU time, not wall time: the machine is shared, and a decode does no I/O
      const cpuMedian = (f: () => unknown) => {
        const runs: number[] = [];
        for (let i = 0; i < 15; i++) {
          const c = process.cpuUsage();
          f();
          const d = process.cpuUsage(c);
          runs.push((d.user + d.system) / 1000);
        }
        return median(runs);
      };
      const record = msgpack.pack(layout);
      const decodeMs = cpuMedian(() => decodeLayout(packed));
      const msgpackMs = cpuMedian(() => msgpack.unpack(record));
      const xml = Buffer.from(nzbXml(layout, 'Bench.mkv'));
      const brotli = await packNzb(xml);
      const per = (bytes: number) => (bytes / n).toFixed(1);
      const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
      log(`${style} ${n}: ${per(packed.length)} B/article, decode ${us(decodeMs)} (msgpack ${us(msgpackMs)})`);
      rows.push(
        `| ${style} | ${n.toLocaleString('en')} | **${per(packed.length)}** | ${per(record.length)} | ${per(xml.length)} | ${per(brotli.length)} | ${encodeMs.toFixed(0)} ms | ${us(decodeMs)} | ${us(msgpackMs)} |`,
      );
    }
  }
  return rows;
}

/** 20 NZBs of one file each, in turn of every style, 1,000-10,000 articles (one of 50,000). */
function library(): { name: string; layout: FileLayout }[] {
  return Array.from({ length: 20 }, (_, k) => {
    const style: IdStyle = ID_STYLES[k % ID_STYLES.length]!;
    const articles = k === 7 ? 50_000 : 1_000 + ((k * 4_637) % 9_000);
    return {
      name: `Bench.Show.S01E${String(k + 1).padStart(2, '0')}.mkv`,
      layout: realisticLayout({ articles, style, seed: k }),
    };
  });
}

/** Serves each article's yEnc facts (what a provider would say), and every STAT as present. */
function syntheticClient(files: { name: string; layout: FileLayout }[]): ArticleClient {
  const where = new Map<string, { name: string; layout: FileLayout; index: number }>();
  for (const f of files) f.layout.segments.forEach((s, index) => where.set(s.messageId, { ...f, index }));
  return {
    async body(id) {
      const w = where.get(id.replace(/^<|>$/g, ''));
      if (!w) throw new ArticleMissingError(id);
      const s = w.layout.segments[w.index]!;
      return {
        messageId: s.messageId,
        providerId: 'synthetic',
        data: Buffer.alloc(Math.min(16_384, s.end - s.start)),
        name: w.name,
        totalSize: w.layout.size,
        part: w.index + 1,
        totalParts: w.layout.segments.length,
        begin: s.start + 1,
        end: s.end,
        partSize: s.end - s.start,
        crc: '00000000',
        wireBytes: 0,
      } as unknown as DecodedArticle;
    },
    async stat() {
      return true;
    },
  };
}

async function wholeStore(log: (m: string) => void): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'spool-bench-store-'));
  const configPath = join(dir, 'config.yaml');
  writeFileSync(configPath, stringify({ health: { enabled: false } }));
  const logger = memoryLogger();
  const config = await ConfigService.open({ configPath, dataDir: dir, logger });
  const store = openStore({ rootPath: dir });
  const parsePool = createParseNzbPool();
  try {
    const files = library();
    const queue = new QueueService(new LmdbQueueStore(store), () => ({ maxRetries: 0 }));
    const healthStore = openHealthStore(store);
    const vfs = new VfsService({
      tree: new LmdbTreeStore({ nodes: openTreeNodes(store), layouts: store.openDb('vfs-layouts') }),
      sidecarDir: join(dir, 'sidecars'),
      health: healthStore.verdicts,
    });
    const client = syntheticClient(files);
    const health = createHealth({ store: healthStore, config, vfs, client, clock: systemClock, logger });
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
        categoryDir: () => 'tv',
        fileFilters: { allowedExtensions: [], filterSamples: true },
      }),
      logger,
    });
    let xmlBytes = 0;
    for (const f of files) {
      const xml = Buffer.from(nzbXml(f.layout, f.name));
      xmlBytes += xml.length;
      const item = await queue.enqueue({ nzb: xml, nzbPath: f.name.replace(/\.mkv$/, '.nzb') });
      const claimed = (await queue.claim())!;
      await queue.complete(item.id, await importer.run(claimed, new AbortController().signal));
    }
    await health.service.reconcile();
    const articles = files.reduce((sum, f) => sum + f.layout.segments.length, 0);
    const imported = [...vfs.walkFiles('/')].length;
    log(`${imported} files, ${articles} articles imported`);
    if (imported !== files.length) throw new Error(`${imported} of ${files.length} files imported`);
    const figures = storeFigures(store, articles);
    return [
      `${files.length} NZBs, ${articles.toLocaleString('en')} articles, NZB XML ${(xmlBytes / articles).toFixed(1)} bytes per article:`,
      '',
      ...storeFigureRows(figures),
    ];
  } finally {
    await parsePool.destroy();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(log: (m: string) => void): Promise<string> {
  const alone = await layoutsAlone(log);
  const whole = await wholeStore(log);
  return [...alone, '', ...whole].join('\n');
}
