/** NntpConnection details the pool tests do not reach: reused read buffers, pipelined writes. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addYencArticle, fakeNntpFixture } from '../../tests/support/fake-nntp/fixtures.js';
import { NntpConnection } from './connection.js';

const { fake } = fakeNntpFixture();

test('two connections sharing a tiny read buffer decode pipelined articles byte-exact (no chunk is kept)', async () => {
  const s = await fake({ username: 'u', password: 'p', latencyMs: 1 });
  const datas = Array.from({ length: 12 }, (_, i) =>
    addYencArticle(s, `b${i}@t`, 3000 + i * 997, { name: `n${i}.bin` }),
  );
  // 1,000 bytes (odd, smaller than one yEnc line block) splits status lines, yEnc headers and terminators.
  const open = () =>
    NntpConnection.open({
      host: s.host,
      port: s.port,
      tls: false,
      insecureTls: false,
      username: 'u',
      password: 'p',
      readBufferBytes: 1000,
    });
  const [a, b] = await Promise.all([open(), open()]);
  const got = await Promise.all(datas.map((_, i) => (i % 2 ? a : b).body(`<b${i}@t>`)));
  got.forEach((g, i) => {
    assert.ok(g.data.equals(datas[i]!), `article ${i}`);
    assert.equal(g.name, `n${i}.bin`);
  });
  assert.deepEqual(await a.head('<b0@t>'), ['Message-ID: <b0@t>', 'Subject: test']);
  assert.equal(await b.date(), '20250101000000');
  await Promise.all([a.quit(), b.quit()]);
  assert.equal(s.stats.unexpected.length, 0);
});
