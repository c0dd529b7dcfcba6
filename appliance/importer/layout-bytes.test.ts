import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import type { ArticleClient } from '../articles/index.js';
import { RAR5_SIGNATURE } from '../archive/index.js';
import { layoutFromExtents, type FileLayout } from '../layout/index.js';
import { ArticleMissingError, type DecodedArticle } from '../nntp/index.js';
import type { NzbDocument } from '../nzb/index.js';
import { fetchFirstArticles } from './first-articles.js';
import { ImportArticles, layoutSource } from './layout-bytes.js';

// Import memory (docs/import.md, "Memory"): a volume's first article is kept only by its first 16 KiB, and whole
// articles fetched for header reads stay in a bounded cache, whatever the number of volumes.

const ARTICLE = 400_000;

/** A synthetic provider: article i is `ARTICLE` bytes, the first ones starting with a RAR5 signature. */
function provider(articles: Map<string, Buffer>): ArticleClient & { bodies: string[] } {
  const bodies: string[] = [];
  return {
    bodies,
    async body(id) {
      bodies.push(id);
      const data = articles.get(id);
      if (!data) throw new ArticleMissingError(id);
      return { messageId: id, data, name: `${id}.bin`, totalSize: data.length, part: 1 } as unknown as DecodedArticle;
    },
    async stat(id) {
      return articles.has(id);
    },
  };
}

/** A file laid out over `ids`, each article `ARTICLE` bytes. */
function layoutOver(ids: string[]): FileLayout {
  const volume = (id: string): FileLayout => ({
    size: ARTICLE,
    segments: [{ messageId: id, start: 0, end: ARTICLE }],
  });
  return layoutFromExtents(ids.map((id) => ({ layout: volume(id), offset: 0, length: ARTICLE })));
}

test('the first pass keeps 16 KiB of an archive volume, not its whole first article', async () => {
  const articles = new Map<string, Buffer>();
  for (let i = 0; i < 20; i++) {
    const data = randomBytes(ARTICLE);
    RAR5_SIGNATURE.copy(data);
    articles.set(`v${i}@spool.test`, data);
  }
  const doc = {
    files: [...articles.keys()].map((id) => ({ segments: { messageId: () => id } })),
  } as unknown as NzbDocument;
  const firsts = await fetchFirstArticles(provider(articles), doc, new AbortController().signal);
  for (const first of firsts) {
    assert.equal(first.missing, false);
    // nothing the import keeps for a volume holds more than its head
    const held = Object.values(first).filter((v): v is Uint8Array => v instanceof Uint8Array);
    assert.deepEqual(
      held.map((b) => b.byteLength),
      [16 * 1024],
    );
    assert.ok(
      held.every((b) => b.buffer.byteLength <= 16 * 1024 + 8192),
      'the head is a copy, not a view',
    );
    if (!first.missing) assert.equal(first.size, ARTICLE);
  }
});

test('reads inside a seeded head fetch nothing; reads past it fetch the article once', async () => {
  const data = randomBytes(ARTICLE);
  const client = provider(new Map([['a@spool.test', data]]));
  const articles = new ImportArticles(client, new AbortController().signal);
  articles.seed('a@spool.test', data.subarray(0, 16 * 1024));
  const source = layoutSource(layoutOver(['a@spool.test']), articles, 'a.rar');
  assert.deepEqual(await source.read(100, 200), data.subarray(100, 300));
  assert.equal(articles.fetched, 0);
  assert.deepEqual(await source.read(16_000, 1_000), data.subarray(16_000, 17_000));
  assert.deepEqual(await source.read(300_000, 10), data.subarray(300_000, 300_010));
  assert.equal(articles.fetched, 1);
  assert.deepEqual(client.bodies, ['a@spool.test']);
});

test('whole articles fetched for header reads stay within the cache bound, least recently used dropped first', async () => {
  const ids = Array.from({ length: 40 }, (_, i) => `n${i}@spool.test`);
  const data = new Map(ids.map((id) => [id, randomBytes(ARTICLE)]));
  const client = provider(data);
  const articles = new ImportArticles(client, new AbortController().signal, 4 * ARTICLE);
  const source = layoutSource(layoutOver(ids), articles, 'set');
  let peak = 0;
  for (let i = 0; i < ids.length; i++) {
    // a header near the end of each article, as a volume's end block is
    const got = await source.read(i * ARTICLE + ARTICLE - 20, 20);
    assert.deepEqual(got, data.get(ids[i]!)!.subarray(ARTICLE - 20));
    peak = Math.max(peak, articles.cachedArticleBytes);
  }
  assert.ok(peak <= 4 * ARTICLE, `cached ${peak} bytes`);
  assert.equal(articles.fetched, 40);
  // the most recent one is still cached: read again without a fetch; the first one was dropped and is fetched again
  await source.read(39 * ARTICLE, 5);
  assert.equal(articles.fetched, 40);
  await source.read(0, 5);
  assert.equal(articles.fetched, 41);
});
