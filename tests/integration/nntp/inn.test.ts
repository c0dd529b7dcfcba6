/** The NNTP engine against a real INN 2 (installed and started by the harness), AUTHINFO required. */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { crc32Hex } from '../../support/yenc/encode.js';
import { NntpPool } from '../../../appliance/nntp/pool.js';
import { NntpConnection } from '../../../appliance/nntp/connection.js';
import { AuthError } from '../../../appliance/nntp/errors.js';
import { checkProvider } from '../../../appliance/nntp/provider-check.js';
import type { ProviderConfig } from '../../../appliance/nntp/types.js';
import { innProvider } from '../../support/inn/provider.js';

let inn: InnServer;
let pool: NntpPool;
const provider = (): ProviderConfig => innProvider(inn, { max_connections: 4 });

before(async () => {
  inn = await ensureInn();
  pool = new NntpPool([provider()]);
});
after(() => pool.close());

test('a multi-part file posted to INN comes back byte-exact, CRC-checked, with its yEnc facts', async () => {
  const file = randomBytes(3 * 400_000 + 12_345);
  const posted = await inn.postFile('movie part.mkv', file, { articleSize: 400_000 });
  assert.equal(posted.segments.length, 4);
  const parts = await Promise.all(
    posted.messageIds.map((id, i) => pool.body(id, { priority: i === 0 ? 'stream' : 'import' })),
  );
  assert.ok(Buffer.concat(parts.map((p) => p.data)).equals(file));
  parts.forEach((p, i) => {
    assert.equal(p.name, 'movie part.mkv');
    assert.equal(p.part, i + 1);
    assert.equal(p.totalParts, 4);
    assert.equal(p.totalSize, file.length);
    assert.equal(p.begin, i * 400_000 + 1);
    assert.equal(p.crc, crc32Hex(file.subarray(p.begin - 1, p.end)));
  });
  assert.match(posted.nzbXml, new RegExp(`<segment bytes="\\d+" number="4">${posted.messageIds[3]}</segment>`));
  assert.equal(await pool.stat(posted.messageIds[0]!), true);
  assert.equal(await pool.stat('no-such-article@spool.test'), false);
  const m = pool.metrics();
  assert.ok(m.total_bytes_downloaded > file.length);
  assert.ok(m.active_connections >= 1 && m.active_connections <= 4);
});

test('HEAD, DATE and pipelined BODY on one connection against INN', async () => {
  const posted = await inn.postFile('small.bin', randomBytes(50_000), { articleSize: 10_000 });
  const conn = await NntpConnection.open({ ...provider(), insecureTls: false });
  const bodies = await Promise.all(posted.messageIds.map((id) => conn.body(`<${id}>`)));
  assert.deepEqual(
    bodies.map((b) => b.part),
    [1, 2, 3, 4, 5],
  );
  const head = await conn.head(`<${posted.messageIds[0]}>`);
  assert.ok(head.some((l) => l === `Message-ID: <${posted.messageIds[0]}>`));
  assert.match(await conn.date(), /^\d{14}$/);
  await conn.quit();
  assert.equal(conn.isClosed, true);
});

test('INN rejects wrong credentials as an AuthError; checkProvider says so', async () => {
  await assert.rejects(NntpConnection.open({ ...provider(), password: 'wrong', insecureTls: false }), AuthError);
  const bad = await checkProvider({ ...provider(), password: 'wrong' });
  assert.equal(bad.success, false);
  assert.match(bad.error_message!, /Authentication failed/);
  assert.deepEqual(await checkProvider(provider()), { success: true });
});
