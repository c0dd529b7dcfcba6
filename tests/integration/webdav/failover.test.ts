import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { FakeNntpServer } from '../../support/fake-nntp/server.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { encodeArticleBody } from '../../support/yenc/encode.js';
import { startServer, type TestServer } from '../../support/server.js';
import { AUTH, DAV_PASS, DAV_USER, addPosted, davUrl, sha256 } from './support.js';
import { film } from '../../support/media/film.js';

// The primary provider (an in-process fake holding the same articles, slowed down) dies mid-stream; the backup
// (the real INN) has the articles, so the read completes byte-exact.
let inn: InnServer;
let fake: FakeNntpServer;
let srv: TestServer;
const provider = (id: string, host: string, port: number, user: string, pass: string, backup: boolean) => ({
  id,
  host,
  port,
  username: user,
  password: pass,
  max_connections: 4,
  tls: false,
  insecure_tls: false,
  enabled: true,
  is_backup_provider: backup,
});

before(async () => {
  inn = await ensureInn();
  fake = await FakeNntpServer.start({ latencyMs: 40 });
  srv = await startServer({
    config: {
      auth: { login_required: true },
      webdav: { user: DAV_USER, password: DAV_PASS },
      streaming: { max_download_workers: 2 },
      providers: [
        provider('primary', fake.host, fake.port, '', '', false),
        provider('backup', inn.host, inn.port, inn.username, inn.password, true),
      ],
    },
  });
});
after(async () => {
  await srv?.stop();
  await fake?.close().catch(() => undefined);
});

test('a provider killed mid-stream: the backup serves the rest, bytes are exact', async () => {
  const file = film(4 * 1024 * 1024);
  const posted = await inn.postFile('failover.mkv', file, { articleSize: 200_000 });
  posted.segments.forEach((s, i) =>
    fake.addArticle(
      s.messageId,
      encodeArticleBody({
        name: 'failover.mkv',
        fileSize: file.length,
        part: i + 1,
        totalParts: posted.segments.length,
        offset: s.offset,
        data: file.subarray(s.offset, s.offset + s.size),
      }),
    ),
  );
  const [path] = (await addPosted(srv, 'movies', 'Failover', [posted])) as [string];
  const res = await fetch(davUrl(srv, path), { headers: { Authorization: AUTH } });
  assert.equal(res.status, 200);
  const reader = res.body!.getReader();
  const parts: Uint8Array[] = [];
  let received = 0;
  let killed = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    received += value.byteLength;
    if (!killed && received > 600_000) {
      killed = true;
      fake.dropAll();
      await fake.close();
    }
  }
  assert.ok(killed, 'the primary was killed while the body was streaming');
  assert.equal(sha256(Buffer.concat(parts)), sha256(file));
  assert.ok((fake.stats.commands.BODY ?? 0) > 0, 'the primary served the start');
});
