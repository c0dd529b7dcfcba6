import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, test } from 'node:test';
import { api, startServer, type TestServer } from '../../support/server.js';
import { upload } from './support.js';

// The upload edge of docs/console-contract.md §5: .nzb only, at most 100 MB, refused with the contract's words and nothing stored.
// No provider is configured: these items would never import, and these tests are about what gets in.
let srv: TestServer;
before(async () => {
  srv = await startServer({ config: { auth: { login_required: false } } });
});
after(() => srv?.stop());

const queued = async () =>
  (await api<{ total_queued: number }>(srv.baseUrl, '/api/queue/stats')).body.data!.total_queued;

/** Streams a multipart body of `fileBytes` bytes with node:http, and reads the answer even if the server cuts the upload short. */
function bigUpload(port: number, fileBytes: number, chunked: boolean): Promise<{ status: number; body: string }> {
  const boundary = 'spoolboundary42';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.nzb"\r\nContent-Type: application/x-nzb\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const headers: Record<string, string> = { 'Content-Type': `multipart/form-data; boundary=${boundary}` };
  if (!chunked) headers['Content-Length'] = String(head.length + fileBytes + tail.length);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/api/queue/upload', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    let sent = 0;
    const pump = () => {
      while (sent < fileBytes) {
        const piece = chunk.subarray(0, Math.min(chunk.length, fileBytes - sent));
        sent += piece.length;
        if (!req.write(sent === piece.length ? Buffer.concat([head, piece]) : piece))
          return void req.once('drain', pump);
      }
      req.end(tail);
    };
    pump();
  });
}

test('a 101 MB upload (declared length) is refused with 413 and the contract text; nothing is stored', async () => {
  const before = await queued();
  const res = await bigUpload(srv.port, 101 * 1024 * 1024, false);
  assert.equal(res.status, 413);
  assert.equal(JSON.parse(res.body).error.message, 'File size must be less than 100MB');
  assert.equal(await queued(), before);
});

test('a 101 MB upload sent chunked (no length) is refused the same way when it passes the limit', async () => {
  const before = await queued();
  const res = await bigUpload(srv.port, 101 * 1024 * 1024, true);
  assert.equal(res.status, 413);
  assert.equal(JSON.parse(res.body).error.message, 'File size must be less than 100MB');
  assert.equal(await queued(), before);
});

test('a file not named .nzb is refused with the contract text; nothing is stored', async () => {
  const before = await queued();
  const res = await upload(srv.baseUrl, 'movie.mkv', '<nzb/>');
  assert.equal(res.status, 400);
  assert.equal(res.body.error?.message, 'Only .nzb files are allowed');
  assert.equal(await queued(), before);
});

test('no file part, or not multipart at all, is a clear 4xx', async () => {
  const form = new FormData();
  form.append('category', 'tv');
  const none = await api(srv.baseUrl, '/api/queue/upload', { method: 'POST', body: form });
  assert.equal(none.status, 400);
  assert.equal(none.body.error?.message, 'No NZB file in the upload');
  const json = await api(srv.baseUrl, '/api/queue/upload', { method: 'POST', json: { file: 'x' } });
  assert.equal(json.status, 415);
  const badPriority = await upload(srv.baseUrl, 'a.nzb', '<nzb/>', { priority: 'urgent' });
  assert.equal(badPriority.status, 400);
});

test('an accepted upload answers data.id with the item as pending, category and priority kept', async () => {
  const res = await upload(srv.baseUrl, 'Some.Show.S01E01.NZB', '<nzb/>', { category: 'tv', priority: '1' });
  assert.equal(res.status, 200);
  const item = res.body.data!;
  assert.ok(item.id > 0);
  assert.equal(item.category, 'tv');
  assert.equal((item as unknown as { priority: number }).priority, 1);
  assert.equal(item.nzb_path, 'Some.Show.S01E01.NZB');
  assert.equal((await api(srv.baseUrl, `/api/queue/${item.id}`)).status, 200);
});

test('an empty file or one that is not an NZB is refused at upload with the spec text; nothing is stored', async () => {
  const before = await queued();
  for (const [name, content, why] of [
    ['Empty.nzb', '', /empty/],
    ['Blank.nzb', '  \r\n\t', /empty/],
    ['Movie.Renamed.nzb', Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 1, 2, 3, 4]), /not an NZB/],
    ['Page.nzb', '<!DOCTYPE html><html><body>404</body></html>', /not an NZB/],
    ['Text.nzb', 'hello world', /not an NZB/],
  ] as const) {
    const res = await upload(srv.baseUrl, name, content);
    assert.equal(res.status, 400, `${name}: ${JSON.stringify(res.body)}`);
    assert.match(res.body.error?.message ?? '', /^Only \.nzb files are allowed/);
    assert.match(res.body.error?.message ?? '', why);
  }
  assert.equal(await queued(), before);
  // An NZB with an XML declaration, comments and a namespace is still an NZB.
  const ok = await upload(
    srv.baseUrl,
    'Declared.nzb',
    '\ufeff<?xml version="1.0"?>\n<!-- c --><!DOCTYPE nzb PUBLIC "x" "y">\n<nzb xmlns="http://www.newzbin.com/DTD/2003/nzb"/>',
  );
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
});
