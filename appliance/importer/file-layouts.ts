import { layoutFile, type FileLayout, type NzbFile, type YencFacts } from '../nzb/index.js';
import type { ArticleClient } from '../articles/index.js';
import { factsOf, fetchImportArticle } from './first-articles.js';
import { nonRetryableError } from './import-errors.js';

/** Rounds of header fetches before giving up; layoutFile converges in one or two on real posts (bisection). */
const MAX_ROUNDS = 12;

/**
 * Lays out one posted file from its first article's facts, fetching the extra headers layoutFile asks for
 * (the last article, then bisection) until every article's decoded range is pinned down.
 */
export async function layoutPostedFile(
  client: ArticleClient,
  file: NzbFile,
  displayName: string,
  first: YencFacts,
  signal: AbortSignal,
): Promise<{ layout: FileLayout; warnings: string[] }> {
  const known = new Map<number, YencFacts>([[0, first]]);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const outcome = layoutFile(file, known);
    if (outcome.kind === 'ok') return { layout: outcome.layout, warnings: outcome.warnings };
    if (outcome.kind === 'invalid') throw nonRetryableError(`${displayName}: ${outcome.reason}`);
    const wanted = outcome.mustCheck.filter((i) => !known.has(i));
    if (wanted.length === 0) throw nonRetryableError(`${displayName}: ${outcome.reason}`);
    for (const index of wanted) {
      const segment = file.segments[index]!;
      const article = await fetchImportArticle(client, segment.messageId, signal);
      if (!article) {
        throw nonRetryableError(
          `${displayName}: article ${index + 1} of ${file.segments.length} (<${segment.messageId}>) is missing on every provider`,
        );
      }
      known.set(index, factsOf(article));
    }
  }
  throw nonRetryableError(`${displayName}: the article sizes could not be worked out from the yEnc headers`);
}
