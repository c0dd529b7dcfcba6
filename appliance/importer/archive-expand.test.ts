import assert from 'node:assert/strict';
import { test } from 'node:test';
import { writeRar5 } from '../../tests/support/archive/rar5-writer.js';
import { materialize } from '../../tests/support/archive/volumes.js';
import type { ArticleClient } from '../articles/index.js';
import { KeyRing, MAX_ARCHIVE_MEMBERS } from '../archive/index.js';
import { ArticleMissingError, type DecodedArticle } from '../nntp/index.js';
import { expandArchives, type Candidate } from './archive-expand.js';
import { ImportError } from './import-errors.js';
import { ImportArticles } from './layout-bytes.js';

// The member cap counts every set of an import together (docs/archives.md, "Limits"): two volumes each under the
// per-volume cap still cannot expose more than MAX_ARCHIVE_MEMBERS files between them.

test('the archives of one import expose at most MAX_ARCHIVE_MEMBERS files, all sets together', async () => {
  const perSet = Math.ceil(MAX_ARCHIVE_MEMBERS * 0.6);
  const articles = new Map<string, Buffer>();
  const candidates: Candidate[] = ['a', 'b'].map((set) => {
    const members = Array.from({ length: perSet }, (_, i) => ({ name: `${set}/${i}.txt`, data: Buffer.of(i & 0xff) }));
    const bytes = materialize(writeRar5(members, { base: set })[0]!);
    const id = `${set}@spool.test`;
    articles.set(id, bytes);
    return {
      file: {
        name: `${set}.rar`,
        size: bytes.length,
        layout: { size: bytes.length, segments: [{ messageId: id, start: 0, end: bytes.length }] },
      },
      head: bytes.subarray(0, 16 * 1024),
    };
  });
  const client: ArticleClient = {
    async body(id) {
      const data = articles.get(id);
      if (!data) throw new ArticleMissingError(id);
      return { messageId: id, data } as unknown as DecodedArticle;
    },
    async stat(id) {
      return articles.has(id);
    },
  };
  const ctx = {
    articles: new ImportArticles(client, new AbortController().signal),
    keys: new KeyRing([]),
    showVolumes: false,
  };
  await assert.rejects(expandArchives(candidates, ctx), (err: unknown) => {
    assert.ok(err instanceof ImportError);
    assert.equal(err.code, 'ARCHIVE_UNSUPPORTED');
    assert.equal(
      err.message,
      `the archives of this release: ${2 * perSet} files; Spool exposes at most ${MAX_ARCHIVE_MEMBERS} files from the archives of one release`,
    );
    return true;
  });
  // one set alone is within the cap
  const one = await expandArchives([candidates[0]!], { ...ctx, membersSoFar: 0 });
  assert.equal(one.length, perSet);
});
