import type { FileLayout } from '../layout/index.js';
import type { ByteSource } from '../archive/index.js';
import { ArticleGoneError, ArticleUnreachableError, LayoutBytes, type ArticleClient } from '../articles/index.js';
import { asImportError } from './first-articles.js';
import { nonRetryableError } from './import-errors.js';

/** A read of archive headers never needs more than this at once; larger asks are hostile sizes. */
const MAX_READ = 4 * 1024 * 1024;

/**
 * Whole articles fetched for header reads are kept up to this many bytes, least recently used dropped first: the
 * reads of one volume come close together (a volume's end block, a member header between two members, a password
 * probe of up to 4 MiB), so a few dozen articles are plenty, whatever the number of volumes (docs/import.md,
 * "Memory").
 */
export const MAX_CACHED_ARTICLE_BYTES = 32 * 1024 * 1024;

/**
 * Decoded articles read during one import (import lane), shared by every volume's header reads: the one reader of a
 * file's bytes (appliance/articles/layout-bytes.ts) on the import lane. The first article of each volume is known
 * only by its head (the first 16 KiB, kept from the first pass), which holds the volume's first headers, so most
 * volumes cost no further fetch; a read past the head fetches the whole article, which is kept in a cache bounded by
 * `MAX_CACHED_ARTICLE_BYTES`.
 */
export class ImportArticles extends LayoutBytes {
  constructor(client: ArticleClient, signal: AbortSignal, maxCachedBytes = MAX_CACHED_ARTICLE_BYTES) {
    super(client, 'import', signal, { maxCachedBytes });
  }
}

/** The bytes of a laid-out file (a posted volume, or a member inside one), read through its articles. */
export function layoutSource(layout: FileLayout, articles: ImportArticles, name: string): ByteSource {
  return {
    size: layout.size,
    async read(offset, length) {
      if (length === 0) return Buffer.alloc(0);
      if (length > MAX_READ || offset < 0 || offset + length > layout.size) {
        throw nonRetryableError(
          `${name}: a header asks for bytes ${offset}-${offset + length} of a ${layout.size}-byte file`,
        );
      }
      return articles.read(layout, offset, offset + length).catch((err: unknown) => {
        throw importErrorOf(err, name);
      });
    },
  };
}

/**
 * A failed read as the import reports it: an article missing or of the wrong size fails the import at once, naming
 * the file; a damaged body or an outage is worded by asImportError (damage fails at once, an outage is retried).
 */
function importErrorOf(err: unknown, name: string): unknown {
  if (err instanceof ArticleGoneError)
    return err.why === 'damaged'
      ? asImportError(err.cause, err.messageId)
      : nonRetryableError(`${name}: ${err.message}`);
  if (err instanceof ArticleUnreachableError) return asImportError(err.cause, err.messageId);
  return err;
}
