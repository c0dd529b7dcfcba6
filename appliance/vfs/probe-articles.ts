import { classifyName } from '../nzb/index.js';
import type { FetchHow } from './article-fetcher.js';

/**
 * Whether a read of a file's article `index` (of `count`) asks for one a library scan reads, which the probe cache
 * keeps (probe-cache.ts, docs/streaming.md "The probe cache"): a media file's first article (its header) and last
 * (an MP4's moov, a Matroska file's cues and tags, what a prober reads to learn the duration), and whatever else a
 * reader classed a scanner asks for first in a read (an index in the middle). The import keeps the same set
 * from what it reads itself (importer/probe-articles.ts).
 */
export function isProbeArticle(name: string, index: number, count: number, how: FetchHow): boolean {
  if (!isProbedFile(name)) return false;
  return index === 0 || index === count - 1 || (how.reader === 'scanner' && how.urgent === true);
}

/** Files a media server's scanner probes: video, audio and subtitles by their names (nzb/classify.ts "media"). */
export function isProbedFile(name: string): boolean {
  return classifyName(name) === 'media';
}
