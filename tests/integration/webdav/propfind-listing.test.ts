/**
 * PROPFIND Depth 1 builds an allprop listing's unlocked entries by their own path (appliance/webdav/properties.ts
 * `allpropResponse`, one string per entry) and answers the next listing from the bytes sent for each entry the
 * last time (appliance/webdav/response-cache.ts). The answer must be the same bytes as each entry's own Depth 0
 * answer (built by the general path, fresh every time), and a change to an entry (a dead property, a rename, a
 * lock) must show in the next one, in a small listing and in one of hundreds of entries.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startServer, type TestServer } from '../../support/server.js';
import { davUrl } from './support.js';

let srv: TestServer;
let dir = '';
let bigDir = '';
/** A listing of ~600 KB: entries kept from one answer and copied into the next in long runs. */
const BIG = 700;
const NAMES = ['a & b.mkv', `<x> 'q' "d".srt`, 'ümlaut #1 %20 ?.nfo', 'Sub Dir/inner.mkv'];

before(async () => {
  srv = await startServer({ config: { auth: { login_required: false } } });
  const layout = { size: 10, segments: [{ messageId: 'a@b', start: 0, end: 10 }] };
  const files = NAMES.map((name) => ({ name, size: 10, layout, sourceNzbPath: '/nzb/odd.nzb' }));
  ({ dir } = await srv.app().streaming.vfs.addJob({ category: 'tv', jobName: 'Odd & <Names>', files }));
  const many = Array.from({ length: BIG }, (_, i) => ({ name: `E${i} & <odd> 'n'.mkv`, size: 10, layout }));
  ({ dir: bigDir } = await srv.app().streaming.vfs.addJob({ category: 'tv', jobName: 'Big & <Job>', files: many }));
});
after(() => srv?.stop());

const dav = async (method: string, path: string, headers: Record<string, string> = {}, body?: string) => {
  const res = await fetch(davUrl(srv, path), { method, headers, body });
  return { status: res.status, text: await res.text(), headers: res.headers };
};
const responses = (xml: string): string[] => [...(xml.match(/<D:response>.*?<\/D:response>/gs) ?? [])];

test('a listing is the same bytes, cold or cached, as each entry answered on its own', async () => {
  const cold = await dav('PROPFIND', `${dir}/`, { Depth: '1' });
  const warm = await dav('PROPFIND', `${dir}/`, { Depth: '1' });
  assert.equal(cold.status, 207);
  assert.equal(warm.text, cold.text);
  assert.equal(warm.headers.get('content-length'), String(Buffer.byteLength(warm.text)));
  assert.equal(warm.headers.get('transfer-encoding'), null);
  const entries = ['', 'a & b.mkv', `<x> 'q' "d".srt`, 'ümlaut #1 %20 ?.nfo', 'Sub Dir'];
  const alone: string[] = [];
  for (const e of entries) alone.push(...responses((await dav('PROPFIND', `${dir}/${e}`, { Depth: '0' })).text));
  assert.equal(alone.length, entries.length);
  assert.deepEqual(responses(warm.text).sort(), alone.sort());
  assert.ok(warm.text.startsWith('<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:">'));
  assert.ok(warm.text.endsWith('</D:response></D:multistatus>'));
  assert.match(warm.text, /<D:displayname>&lt;x&gt; &apos;q&apos; &quot;d&quot;\.srt<\/D:displayname>/);
  assert.match(warm.text, /<D:href>[^<]*\/%3Cx%3E%20&apos;q&apos;%20%22d%22\.srt<\/D:href>/);
});

test('a dead property, a rename and a lock show in the next listing', async () => {
  await dav('PROPFIND', `${dir}/`, { Depth: '1' }); // cached now
  const patch =
    '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z">' +
    '<D:set><D:prop><Z:note>seen</Z:note></D:prop></D:set></D:propertyupdate>';
  assert.equal((await dav('PROPPATCH', `${dir}/a & b.mkv`, {}, patch)).status, 207);
  assert.match((await dav('PROPFIND', `${dir}/`, { Depth: '1' })).text, /<note xmlns="urn:z">seen<\/note>/);

  const to = `${srv.baseUrl}${new URL(davUrl(srv, `${dir}/renamed & moved.nfo`)).pathname}`;
  assert.equal((await dav('MOVE', `${dir}/ümlaut #1 %20 ?.nfo`, { Destination: to })).status, 201);
  const moved = (await dav('PROPFIND', `${dir}/`, { Depth: '1' })).text;
  assert.match(moved, /<D:displayname>renamed &amp; moved\.nfo<\/D:displayname>/);
  assert.doesNotMatch(moved, /ümlaut/);

  const lock =
    '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope>' +
    '<D:locktype><D:write/></D:locktype><D:owner>test</D:owner></D:lockinfo>';
  assert.equal((await dav('LOCK', `${dir}/Sub Dir/`, { Timeout: 'Second-600' }, lock)).status, 200);
  const locked = responses((await dav('PROPFIND', `${dir}/`, { Depth: '1' })).text);
  const sub = locked.find((r) => r.includes('<D:displayname>Sub Dir</D:displayname>'));
  assert.match(sub ?? '', /<D:activelock>/);
  assert.equal(locked.filter((r) => r.includes('<D:activelock>')).length, 1);
});

test('a listing of hundreds of entries: the same document cold, cached, with a lock in it and after', async () => {
  const cold = await dav('PROPFIND', `${bigDir}/`, { Depth: '1' });
  assert.equal(cold.status, 207);
  assert.equal(cold.headers.get('content-length'), String(Buffer.byteLength(cold.text)));
  assert.ok(cold.text.startsWith('<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:">'));
  assert.ok(cold.text.endsWith('</D:response></D:multistatus>'));
  const listed = responses(cold.text);
  assert.equal(listed.length, BIG + 1);
  // entries at the ends and in between, each the same as its own Depth 0 answer
  for (const i of [0, 1, 299, 300, 301, 302, 599, 600, 601, BIG - 1]) {
    const name = `E${i} & <odd> 'n'.mkv`;
    const alone = responses((await dav('PROPFIND', `${bigDir}/${name}`, { Depth: '0' })).text)[0];
    assert.ok(alone && listed.includes(alone), name);
  }
  assert.equal((await dav('PROPFIND', `${bigDir}/`, { Depth: '1' })).text, cold.text);

  const lock =
    '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope>' +
    '<D:locktype><D:write/></D:locktype><D:owner>test</D:owner></D:lockinfo>';
  const locked = await dav('LOCK', `${bigDir}/E400 & <odd> 'n'.mkv`, { Timeout: 'Second-600' }, lock);
  assert.equal(locked.status, 200);
  const withLock = responses((await dav('PROPFIND', `${bigDir}/`, { Depth: '1' })).text);
  assert.equal(withLock.length, BIG + 1);
  assert.equal(withLock.filter((r) => r.includes('<D:activelock>')).length, 1);
  assert.deepEqual(
    withLock.filter((r) => !r.includes('<D:activelock>')),
    listed.filter((r) => !r.includes('E400%20')),
  );
  const token = /<D:locktoken><D:href>([^<]+)<\/D:href>/.exec(locked.text)?.[1] ?? '';
  assert.equal((await dav('UNLOCK', `${bigDir}/E400 & <odd> 'n'.mkv`, { 'Lock-Token': `<${token}>` })).status, 204);
  const unlocked = await dav('PROPFIND', `${bigDir}/`, { Depth: '1' });
  assert.equal(unlocked.text, cold.text);
  assert.equal((await dav('PROPFIND', `${bigDir}/`, { Depth: '1' })).text, cold.text);
});
