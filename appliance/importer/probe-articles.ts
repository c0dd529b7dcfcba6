import { mapLimit } from '../articles/index.js';
import { resolveLayout, segmentsForRange } from '../layout/index.js';
import type { Logger } from '../logging/logger.js';
import { isProbedFile } from '../vfs/probe-articles.js';
import type { ProbeCache } from '../vfs/probe-cache.js';
import type { AddJobFile } from '../vfs/types.js';
import type { ImportArticles } from './layout-bytes.js';

/** Byte ranges [start, end) the import read of each file (importer/media-durations.ts records them). */
export type FileReads = Map<AddJobFile, [number, number][]>;

/** Where the import keeps the articles a library scan will read (the probe cache, vfs/probe-cache.ts). */
export type ProbeKeeper = Pick<ProbeCache, 'holds' | 'put'>;

/**
 * Puts each exposed media file's probe articles in the probe cache as the import writes it (docs/streaming.md,
 * "The probe cache"): its first and last article, and every article the import read to learn its duration, which
 * are the ones a prober reads too (an MP4's top-level boxes and moov; a Matroska file's head). The media server's
 * scan that follows an import then costs the providers nothing. Most of them are in hand already (the duration
 * read's articles); the first article (of which the import kept only its head) costs one fetch on the import lane.
 * Each is on disk before the job is written, so the arr's ffprobe right after the import finds it. Nothing here
 * fails an import: a read that fails leaves the article to be kept when a reader first fetches it.
 */
export async function keepProbeArticles(
  files: AddJobFile[],
  reads: FileReads,
  articles: ImportArticles,
  cache: ProbeKeeper,
  signal: AbortSignal,
  logger: Logger,
): Promise<void> {
  // a few files at a time: each file's first article is a fetch (a round trip on a long link)
  await mapLimit(files, 4, async (file) => {
    if (!isProbedFile(file.name) || file.size === 0) return;
    const layout = resolveLayout(file.layout);
    const count = layout.segments.length;
    const wanted = new Set([0, count - 1]);
    for (const [start, end] of reads.get(file) ?? []) {
      const range = segmentsForRange(layout, start, end);
      if (!range) continue;
      for (let i = range.first; i <= range.last; i++) wanted.add(i);
    }
    for (const index of [...wanted].sort((a, b) => a - b)) {
      const id = layout.segments[index]?.messageId;
      if (id === undefined || cache.holds(id)) continue;
      try {
        await cache.put(id, await articles.wholeArticle(layout, index));
      } catch (err) {
        signal.throwIfAborted();
        logger.debug('probe article not kept', { file: file.name, index, error: (err as Error).message });
      }
    }
  });
}
