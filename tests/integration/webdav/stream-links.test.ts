import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { ensureInn } from '../../support/inn/server.js';
import { innProvider } from '../../support/inn/provider.js';
import { makeMedia } from '../../support/media/ffmpeg.js';
import { freePort } from '../../support/free-port.js';
import { startPathProxy, type NginxProxy } from '../../support/nginx-path-proxy.js';
import { api, startServer, type TestServer } from '../../support/server.js';
import { upload, waitForItem } from '../import/support.js';
import { sha256 } from './support.js';

// A film imported with the strm strategy; its .strm file's signed link played by Debian's ffmpeg through Debian's
// nginx (the operator's reverse proxy), with no credentials in the URL (docs/security.md "Stream links").
const run = promisify(execFile);
let srv: TestServer;
let proxy: NginxProxy;
let root: string;
let film: Buffer;
let link: string;

before(async () => {
  const inn = await ensureInn();
  film = makeMedia('mkv', 8, { fps: 25, size: '320x240' });
  const posted = await inn.postFile('Film (2024).mkv', film, { articleSize: 128_000 });
  const other = await inn.postFile('Other (2023).mkv', makeMedia('mkv', 2), { articleSize: 128_000 });
  root = mkdtempSync(join(tmpdir(), 'spool-links-'));
  const proxyPort = await freePort();
  srv = await startServer({
    config: {
      auth: { login_required: false },
      providers: [innProvider(inn)],
      webdav: { user: 'dav', password: 'never-in-a-link' },
      import: {
        import_strategy: 'strm',
        import_dir: join(root, 'downloads'),
        strm_base_url: `http://127.0.0.1:${proxyPort}/spool`,
        queue_processing_interval_seconds: 1,
      },
    },
  });
  proxy = await startPathProxy(srv.baseUrl, '/spool', proxyPort);
  for (const [name, p] of [
    ['Film.2024.nzb', posted],
    ['Other.2023.nzb', other],
  ] as const) {
    const { body } = await upload(srv.baseUrl, name, p.nzbXml, { category: 'movies' });
    const item = await waitForItem(srv.baseUrl, body.data!.id);
    assert.equal(item.status, 'completed', JSON.stringify(item));
  }
  link = readFileSync(
    strmFiles(join(root, 'downloads')).find((f) => f.includes('Film'))!,
    'utf8',
  ).trim();
});
after(async () => {
  await proxy?.stop();
  await srv?.stop();
  rmSync(root, { recursive: true, force: true });
});

function strmFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.strm'))
    .map((e) => join(e.parentPath, e.name));
}

/** One request on `agent` (keep-alive): status, body and whether it went over a socket already open. */
function request(agent: http.Agent, url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: Buffer; reused: boolean }>((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(parts), reused: req.reusedSocket }));
    });
    req.on('error', reject);
  });
}

test('the .strm file carries a signed link at the public URL, with no credentials in it', () => {
  const url = new URL(link);
  assert.equal(url.origin, proxy.publicUrl.replace(/\/spool$/, ''));
  assert.match(url.pathname, /^\/spool\/stream\/[^/]+\/Film%20\(2024\)\.mkv$/);
  assert.equal(url.username, '');
  assert.equal(url.password, '');
  assert.ok(!link.includes('never-in-a-link'));
});

test('ffmpeg plays the film from the link through nginx, and the bytes are the film', async () => {
  const { stderr } = await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', link, '-f', 'null', '-']);
  assert.equal(stderr.trim(), '');
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', link]);
  assert.ok(Math.abs(Number(stdout.trim()) - 8) < 0.5, `duration ${stdout}`);
  const res = await fetch(link);
  assert.equal(res.status, 200);
  assert.equal(sha256(Buffer.from(await res.arrayBuffer())), sha256(film));
  const ranged = await fetch(link, { headers: { Range: 'bytes=100-199' } });
  assert.equal(ranged.status, 206);
  assert.ok(Buffer.from(await ranged.arrayBuffer()).equals(film.subarray(100, 200)));
});

test("one file's link does not open another, cannot write, and a tampered link is refused", async () => {
  const other = link.replace(/Film%20\(2024\)\.mkv$/, 'Other%20(2023).mkv');
  const res = await fetch(other);
  assert.equal(res.status, 401);
  assert.match(await res.text(), /does not open that file/);
  const put = await fetch(link, { method: 'PUT', body: 'x' });
  assert.equal(put.status, 405);
  const url = new URL(link);
  const token = url.pathname.split('/')[3]!;
  const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
  const tampered = await fetch(link.replace(token, flipped));
  assert.equal(tampered.status, 401);
  assert.match(await tampered.text(), /not signed by this Spool/);
  const logged = srv.logs.filter((l) => l.includes('stream link refused'));
  assert.ok(logged.some((l) => l.includes('"outside"')) && logged.some((l) => l.includes('"tampered"')));
});

test('a revoked link answers 401 on the next request of a connection the player holds open', async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const first = await request(agent, link, { Range: 'bytes=0-65535' });
    assert.equal(first.status, 206);
    const { body } = await api<{ links: { id: string; path: string; url: string }[] }>(srv.baseUrl, '/api/files/links');
    const mine = body.data!.links.find((l) => l.url === link)!;
    assert.ok(mine, 'the .strm link is listed');
    const revoked = await api(srv.baseUrl, `/api/files/links/${mine.id}`, { method: 'DELETE' });
    assert.equal(revoked.status, 200);
    const next = await request(agent, link, { Range: 'bytes=65536-131071' });
    assert.equal(next.reused, true, 'the same connection');
    assert.equal(next.status, 401);
    assert.match(next.body.toString(), /revoked/);
  } finally {
    agent.destroy();
  }
});
