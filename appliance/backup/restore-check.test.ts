import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkRestoredLibrary, type LibraryFile } from './restore-check.js';

const files = (n: number): LibraryFile[] =>
  Array.from({ length: n }, (_, i) => ({
    path: `/complete/movies/M${i}/M${i}.mkv`,
    articles: () => Array.from({ length: 10 }, (_, a) => `m${i}-a${a}@t`),
  }));

test('the pass names the files with an article every provider answered 430 for; an outage is inconclusive', async () => {
  const asked: string[] = [];
  let spent = 0;
  const check = await checkRestoredLibrary(
    {
      files: () => files(20),
      stat: async (ids) => {
        asked.push(...ids);
        return ids.map((id) =>
          id.startsWith('m3-') && id.endsWith('a9@t') ? false : id.startsWith('m5-') ? new Error('timeout') : true,
        );
      },
      spend: async (n) => void (spent += n),
      hasProviders: () => true,
    },
    { files: 100, articlesPerFile: 3 },
    new AbortController().signal,
  );
  assert.equal(check.state, 'done');
  assert.equal(check.files_sampled, 20);
  assert.equal(check.articles_checked, 60);
  assert.equal(spent, 60, 'every STAT taken from the health budget');
  assert.ok(asked.includes('m0-a0@t') && asked.includes('m0-a9@t') && asked.includes('m0-a5@t'), 'first, middle, last');
  assert.deepEqual(check.missing_files, ['/complete/movies/M3/M3.mkv'], 'M5 timed out: not evidence');
  assert.equal(check.inconclusive, 3);
});

test('the pass samples at most the number asked, and is skipped without providers', async () => {
  let stats = 0;
  const deps = {
    files: () => files(1000),
    stat: async (ids: readonly string[]) => ((stats += ids.length), ids.map(() => true)),
    spend: async () => undefined,
    hasProviders: () => true,
  };
  const check = await checkRestoredLibrary(deps, { files: 50, articlesPerFile: 2 }, new AbortController().signal);
  assert.equal(check.files_sampled, 50);
  assert.equal(stats, 100);
  const skipped = await checkRestoredLibrary(
    { ...deps, hasProviders: () => false },
    { files: 50, articlesPerFile: 2 },
    new AbortController().signal,
  );
  assert.equal(skipped.state, 'skipped');
});
