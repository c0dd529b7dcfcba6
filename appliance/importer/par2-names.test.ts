import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { fileDescPacket, mainPacket, par2Packet } from '../../tests/support/nzb/par2-writer.js';
import { NzbBuilder } from '../../tests/support/nzb/builder.js';
import type { ArticleClient } from '../articles/index.js';
import { ArticleMissingError, type DecodedArticle } from '../nntp/index.js';
import { parseNzb } from '../nzb/index.js';
import { fetchFirstArticles } from './first-articles.js';
import { readPar2Descriptions } from './par2-names.js';

// The first pass keeps 16 KiB of each first article (docs/import.md, "Memory"): a PAR2 index larger than that has
// its first article fetched again when names are needed, and still names the files.

test('a PAR2 index larger than the kept head is read whole (its first article fetched again)', async () => {
  const media = { name: 'Real.Name.2024.mkv', data: randomBytes(40_000) };
  // a creator packet of 30 KB puts the file description past the first 16 KiB
  const index = Buffer.concat([
    par2Packet('PAR 2.0\0Creator', Buffer.alloc(30_000, 0x41)),
    mainPacket([media]),
    fileDescPacket(media),
  ]);
  const bodies: string[] = [];
  const articles = new Map([
    ['m.1@spool.test', { data: media.data, name: '9f8e7d6c5b4a39281706f5e4d3c2b1a0.bin' }],
    ['p.1@spool.test', { data: index, name: '0a1b2c3d4e5f60718293a4b5c6d7e8f9.par2' }],
  ]);
  const client: ArticleClient = {
    async body(id) {
      bodies.push(id);
      const a = articles.get(id);
      if (!a) throw new ArticleMissingError(id);
      return {
        messageId: id,
        data: a.data,
        name: a.name,
        totalSize: a.data.length,
        part: 1,
        totalParts: 1,
        begin: 1,
        end: a.data.length,
      } as unknown as DecodedArticle;
    },
    async stat(id) {
      return articles.has(id);
    },
  };
  const doc = parseNzb(
    new NzbBuilder()
      .file((f) => f.subject('"9f8e7d6c5b4a39281706f5e4d3c2b1a0.bin" yEnc (1/1)').segment(1, 'm.1@spool.test', 40_000))
      .file((f) =>
        f.subject('"0a1b2c3d4e5f60718293a4b5c6d7e8f9.par2" yEnc (1/1)').segment(1, 'p.1@spool.test', index.length),
      )
      .toBuffer(),
  );
  const signal = new AbortController().signal;
  const firsts = await fetchFirstArticles(client, doc, signal);
  const par2First = firsts[1]!;
  assert.ok(!par2First.missing && par2First.head.length < par2First.size, 'the head is not the whole index');
  const evidence = firsts.map((f) => (f.missing ? undefined : { yenc: f.facts, head: f.head }));
  const descriptions = await readPar2Descriptions(client, doc, firsts, evidence, signal);
  assert.deepEqual(
    descriptions.map((d) => d.name),
    ['Real.Name.2024.mkv'],
  );
  assert.equal(bodies.filter((id) => id === 'p.1@spool.test').length, 2, 'fetched in the first pass and again');
});
