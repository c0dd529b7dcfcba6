import { buildLayout, planLayout, type FileLayout, type NzbFile, type YencFacts } from '../nzb/index.js';
import type { ArticleClient } from '../articles/index.js';
import { factsOf, fetchImportArticle } from './first-articles.js';
import { nonRetryableError } from './import-errors.js';

/** Rounds of header fetches before giving up; layoutFile converges in one or two on real posts (bisection). */
const MAX_ROUNDS = 12;

/** A posted file whose every article's decoded range is known; `build` makes its layout (each call a new one). */
export interface PlannedLayout {
  size: number;
  warnings: string[];
  build(): FileLayout;
}

/**
 * Lays out one posted file from its first article's facts, fetching the extra headers planLayout asks for
 * (the last article, then bisection) until every article's decoded range is pinned down. The layout itself is
 * built later, when the job is written (`build`): until then the file costs 8 bytes per article.
 */
export async function layoutPostedFile(
  client: ArticleClient,
  file: NzbFile,
  displayName: string,
  first: YencFacts,
  signal: AbortSignal,
): Promise<PlannedLayout> {
  const known = new Map<number, YencFacts>([[0, first]]);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const outcome = planLayout(file, known);
    if (outcome.kind === 'ok') {
      const { sizes, size, warnings } = outcome;
      return { size, warnings, build: () => buildLayout(file, sizes) };
    }
    if (outcome.kind === 'invalid') throw nonRetryableError(`${displayName}: ${outcome.reason}`);
    const wanted = outcome.mustCheck.filter((i) => !known.has(i));
    if (wanted.length === 0) throw nonRetryableError(`${displayName}: ${outcome.reason}`);
    for (const index of wanted) {
      const messageId = file.segments.messageId(index);
      const article = await fetchImportArticle(client, messageId, signal);
      if (!article) {
        throw nonRetryableError(
          `${displayName}: article ${index + 1} of ${file.segments.length} (<${messageId}>) is missing on every provider`,
        );
      }
      known.set(index, factsOf(article));
    }
  }
  throw nonRetryableError(`${displayName}: the article sizes could not be worked out from the yEnc headers`);
}
