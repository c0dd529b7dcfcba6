/**
 * TCP_QUICKACK on provider connections (tcp-quickack.ts): the addon is built and loads, it refuses what is not a
 * connected TCP socket, and a connection that fetches articles back to back leaves its socket out of the kernel's
 * delayed-ACK ("pingpong") mode, over plain TCP and TLS, where the same fetches without it leave the socket in it.
 * The kernel reports TCP_QUICKACK as "not in pingpong mode", so the flag read back is the observable effect.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { once } from 'node:events';
import { FakeNntpServer } from '../../tests/support/fake-nntp/server.js';
import { makeTestCerts, type TestCerts } from '../../tests/support/fake-nntp/certs.js';
import { encodeArticleBody } from '../../tests/support/yenc/encode.js';
import { NntpConnection } from './connection.js';
import { quickAck, quickAckUnavailable, socketFd } from './tcp-quickack.js';

let certs: TestCerts;
let plain: FakeNntpServer;
let secure: FakeNntpServer;
const data = randomBytes(400_000);
const IDS = Array.from({ length: 12 }, (_, i) => `qa${i}@test`);

before(async () => {
  certs = makeTestCerts();
  plain = await FakeNntpServer.start();
  secure = await FakeNntpServer.start({ tls: certs.signed });
  for (const s of [plain, secure])
    for (const id of IDS)
      s.addArticle(
        id,
        encodeArticleBody({ name: 'q.bin', fileSize: data.length, part: 1, totalParts: 1, offset: 0, data }),
      );
});
after(async () => {
  await Promise.all([plain.close(), secure.close()]);
  certs.cleanup();
});

test('the TCP options addon is built and loads', () => {
  assert.equal(quickAckUnavailable, '');
});

test('quickAck refuses a socket with no descriptor and sets the option on a connected one', async () => {
  assert.equal(quickAck(new net.Socket()), false);
  const server = net.createServer((s) => s.end());
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  assert.equal(typeof socketFd(socket), 'number');
  assert.equal(quickAck(socket), true);
  socket.destroy();
  server.close();
});

/** Fetches every article one after the other (each command leaves right after the previous reply ended). */
async function fetchAll(s: FakeNntpServer, useTls: boolean, quick: boolean): Promise<number | undefined> {
  const conn = await NntpConnection.open({
    host: s.host,
    port: s.port,
    username: '',
    password: '',
    tls: useTls,
    insecureTls: false,
    tlsCa: useTls ? certs.caCert : undefined,
    quickAck: quick,
  });
  try {
    for (const id of IDS) {
      const part = await conn.body(`<${id}>`);
      assert.equal(part.data.length, data.length);
    }
    return conn.quickAckState;
  } finally {
    await conn.quit();
  }
}

for (const useTls of [false, true]) {
  test(`back-to-back articles leave the socket out of delayed-ACK mode (${useTls ? 'TLS' : 'plain TCP'})`, async () => {
    const server = useTls ? secure : plain;
    assert.equal(await fetchAll(server, useTls, true), 1, 'with quick ACKs the socket ends out of pingpong mode');
    // The negative control: the same exchange without the option leaves the kernel delaying ACKs. The kernel enters
    // pingpong mode only when the next command leaves within its ACK timeout (40-200 ms) of the reply, which a busy
    // machine can miss (once in a CI run): the exchange is repeated until the kernel shows it, 20 times at most.
    const states: (number | undefined)[] = [];
    while (states.length < 20 && !states.includes(0)) states.push(await fetchAll(server, useTls, false));
    assert.ok(states.includes(0), `without them the kernel is in pingpong mode (read back: ${states.join(', ')})`);
  });
}
