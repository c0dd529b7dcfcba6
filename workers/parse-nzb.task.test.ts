import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NzbBuilder } from '../tests/support/nzb/builder.js';
import { generateLargeNzb } from '../tests/support/nzb/generate.js';
import { NzbParseError } from '../appliance/nzb/errors.js';
import type { FileLayout } from '../appliance/layout/index.js';
import { findSegment } from '../appliance/layout/index.js';
import { parseNzb } from '../appliance/nzb/parser.js';
import { describeParse } from '../tests/support/nzb/corpus.js';
import { randomBytes } from 'node:crypto';
import { brotliCompressSync as brotliSync, constants } from 'node:zlib';
import {
  createParseNzbPool,
  parseNzbAuto,
  parseNzbInPool,
  parseStoredNzb,
  WORKER_THRESHOLD_COMPRESSED_BYTES,
} from './parse-nzb.client.js';

/** As the queue stores NZBs (quality 5, appliance/importer/nzb-blob.store.ts): quality 11 took ~45 s for the big one. */
const brotliCompressSync = (data: Uint8Array) => brotliSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });

describe('parse-nzb task in a real Piscina worker', () => {
  const pool = createParseNzbPool();
  after(() => pool.destroy());

  it('parses and lays out a 70,000-article NZB off the main thread, moving the input', async () => {
    const generated = generateLargeNzb();
    const expected = parseNzb(generated.xml);
    const input = new Uint8Array(generated.xml); // an owned copy we can watch being moved
    const facts = generated.files[0]!;
    const { doc, layouts } = await parseNzbInPool(pool, input, {
      layouts: [
        { fileIndex: 0, facts: [[0, facts.first]] },
        { fileIndex: 3, facts: [] },
      ],
    });
    assert.equal(input.byteLength, 0, 'the NZB bytes were transferred, not copied');
    assert.equal(
      describeParse(() => doc),
      describeParse(() => expected),
    );
    assert.equal(layouts[0]!.kind, 'ok');
    const layout = (layouts[0] as { layout: FileLayout }).layout;
    assert.equal(layout.size, 50_000_000_000);
    assert.equal(findSegment(layout, 49_999_999_999), 69_999);
    assert.deepEqual(layouts[1], { kind: 'invalid', reason: 'the NZB has no file 3' });
  });

  it('returns bad input as an NzbParseError with its position, and the worker survives', async () => {
    await assert.rejects(parseNzbInPool(pool, Buffer.from('<nzb><file>')), (err: unknown) => {
      assert.ok(err instanceof NzbParseError);
      assert.equal(err.kind, 'malformed');
      assert.match(err.message, /line 1, column \d+: unclosed tag: file/);
      return true;
    });
    const bomb = '<!DOCTYPE nzb [<!ENTITY a "aaaa">]><nzb>&a;</nzb>';
    await assert.rejects(parseNzbInPool(pool, Buffer.from(bomb)), /internal subset/);
    const ok = await parseNzbInPool(pool, new NzbBuilder().file((f) => f.segments(2, 10)).toBuffer());
    assert.equal(ok.doc.files[0]!.segments.length, 2);
  });

  it('copies a pooled Buffer slice instead of detaching its neighbours', async () => {
    const small = Buffer.from(new NzbBuilder().file((f) => f.segments(1, 10)).toXml());
    const neighbour = Buffer.from('still here');
    await parseNzbInPool(pool, small);
    assert.equal(neighbour.toString(), 'still here');
    assert.ok(small.byteLength > 0);
  });

  it('parseNzbAuto gives the same document inline and in the pool', async () => {
    const xml = new NzbBuilder()
      .meta('password', 'x')
      .file((f) => f.segments(5, 100))
      .toBuffer();
    const auto = await parseNzbAuto(pool, xml);
    assert.equal(
      describeParse(() => auto),
      describeParse(() => parseNzb(xml)),
    );
  });

  it('moves the segment arrays back (values beyond 2^32 and multibyte message-ids intact)', async () => {
    const xml = new NzbBuilder()
      .meta('title', 'Ünï')
      .file((f) => f.segment(1, 'a@x', 10).segment(2 ** 33, 'ç日@x', 2 ** 40))
      .file((f) => f.subject('two').segments(3, 7))
      .toBuffer();
    const { doc } = await parseNzbInPool(pool, xml);
    assert.deepEqual(doc.files[0]!.segments.toArray(), [
      { number: 1, bytes: 10, messageId: 'a@x' },
      { number: 2 ** 33, bytes: 2 ** 40, messageId: 'ç日@x' },
    ]);
    assert.equal(doc.files[1]!.segments.messageId(2), 'seg.3@spool.test');
    assert.deepEqual(doc.meta, { title: ['Ünï'] });
  });
});

describe('parseStoredNzb: the NZB as the queue stores it (brotli)', () => {
  const pool = createParseNzbPool();
  after(() => pool.destroy());
  const big = generateLargeNzb({ articles: 70_000, splitInto: 3 }).xml;
  const bigCompressed = brotliCompressSync(big);

  it('decompresses a big one in the worker while parsing, with the same result as parsing the XML', async () => {
    assert.ok(bigCompressed.byteLength >= WORKER_THRESHOLD_COMPRESSED_BYTES, 'the worker path is taken');
    const moved = new Uint8Array(bigCompressed);
    const doc = await parseStoredNzb(pool, moved);
    assert.equal(moved.byteLength, 0, 'the compressed bytes were moved to the worker');
    assert.equal(
      describeParse(() => doc),
      describeParse(() => parseNzb(big)),
    );
  });

  it('parses a small one inline, with the same result', async () => {
    const xml = new NzbBuilder()
      .meta('password', 'p')
      .file((f) => f.segments(4, 100))
      .toBuffer();
    const doc = await parseStoredNzb(pool, brotliCompressSync(xml));
    assert.equal(
      describeParse(() => doc),
      describeParse(() => parseNzb(xml)),
    );
  });

  it('turns corrupt or cut compressed data into an NzbParseError, big or small', async () => {
    const small = brotliCompressSync(new NzbBuilder().file((f) => f.segments(4, 100)).toBuffer());
    for (const cut of [small.subarray(0, small.length - 4), bigCompressed.subarray(0, bigCompressed.length / 2)]) {
      await assert.rejects(parseStoredNzb(pool, new Uint8Array(cut)), (err: unknown) => {
        assert.ok(err instanceof NzbParseError, String(err));
        assert.equal(err.kind, 'malformed');
        assert.match(err.message, /could not be decompressed/);
        return true;
      });
    }
    // random bytes may even decompress to something: it is then not XML; either way a parse error, never a crash
    for (const size of [1000, WORKER_THRESHOLD_COMPRESSED_BYTES * 2]) {
      await assert.rejects(parseStoredNzb(pool, randomBytes(size)), NzbParseError);
    }
  });

  it('stops decompressing at the size limit, big or small (a brotli bomb costs no more than the limit)', async () => {
    const bomb = brotliCompressSync(Buffer.alloc(50 * 1024 * 1024, 0x20)); // 50 MB of spaces in a few bytes
    await assert.rejects(parseStoredNzb(pool, bomb, { maxBytes: 1 << 20 }), /larger than 1048576 bytes/);
    await assert.rejects(parseStoredNzb(pool, bigCompressed, { maxBytes: 1 << 20 }), /larger than 1048576 bytes/);
  });
});

describe('parse worker lifetime', () => {
  it('exits once idle, so the memory a big parse took goes back to the system', async () => {
    const pool = createParseNzbPool();
    try {
      const doc = await parseNzbAuto(pool, generateLargeNzb({ articles: 20_000 }).xml);
      assert.equal(doc.files[0]!.segments.length, 20_000);
      assert.equal(pool.threads.length, 1, 'the parse ran in a worker');
      const deadline = Date.now() + 5_000;
      while (pool.threads.length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      assert.equal(pool.threads.length, 0, 'the idle worker is still alive, holding its heap');
    } finally {
      await pool.destroy();
    }
  });
});
