import type { Logger } from '../logging/logger.js';
import { resolveLayout } from '../layout/index.js';
import { isMediaName, mediaDuration } from '../media/media-duration.js';
import type { AddJobFile } from '../vfs/types.js';
import { layoutSource, type ImportArticles } from './layout-bytes.js';
import type { FileReads } from './probe-articles.js';

/**
 * Reads each exposed media file's duration from its container's headers (appliance/media/), so the Streams view can
 * set a stream's delivered rate against the file's bitrate (docs/streaming.md). The heads the import already has
 * serve a Matroska file and a fast-start MP4; an MP4 whose moov follows its media data costs one article more.
 * Nothing here fails an import: a file that does not say, or a read that fails (an outage is no evidence about the
 * file), is left without a duration. Encrypted members are not read (their bytes are ciphertext until streamed).
 */
export async function readMediaDurations(
  files: AddJobFile[],
  articles: ImportArticles,
  signal: AbortSignal,
  logger: Logger,
  /** Where the byte ranges read of each file are recorded (importer/probe-articles.ts keeps their articles). */
  reads?: FileReads,
): Promise<void> {
  for (const file of files) {
    if (!isMediaName(file.name) || file.size < 16) continue;
    const layout = resolveLayout(file.layout);
    if (layout.cipher) continue;
    const bytes = layoutSource(layout, articles, file.name);
    const ranges: [number, number][] = [];
    reads?.set(file, ranges);
    const source = {
      size: bytes.size,
      read(offset: number, length: number) {
        ranges.push([offset, offset + length]);
        return bytes.read(offset, length);
      },
    };
    try {
      const seconds = await mediaDuration(source);
      if (seconds !== undefined) file.durationSeconds = seconds;
    } catch (err) {
      signal.throwIfAborted();
      logger.debug('media duration not read', { file: file.name, error: (err as Error).message });
    }
  }
}
