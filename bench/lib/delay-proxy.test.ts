/**
 * The emulated link of the latency benchmarks: bytes arrive intact and in order, never earlier than the round trip
 * allows (these are lower bounds, so a loaded machine cannot make them flaky), a full window pauses the sender
 * without losing data, the bandwidth cap paces the link, and stop() closes everything.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { startDelayProxy } from './delay-proxy.js';
import { startDelayProxyProcess } from './delay-proxy-process.js';

let target: net.Server;
let port = 0;

/** Greets first (as NNTP does), then echoes everything. */
before(async () => {
  target = net.createServer((s) => {
    s.write('hello\n');
    s.pipe(s);
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  port = (target.address() as net.AddressInfo).port;
});
after(() => new Promise<void>((r) => target.close(() => r())));

function connect(p: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect(p, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
}

function readBytes(s: net.Socket, n: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let got = 0;
    const onData = (d: Buffer) => {
      parts.push(d);
      got += d.length;
      if (got >= n) {
        s.off('data', onData);
        resolve(Buffer.concat(parts).subarray(0, n));
      }
    };
    s.on('data', onData);
    s.once('close', () => reject(new Error(`closed after ${got} of ${n} bytes`)));
  });
}

test('a server that speaks first is heard two round trips after the connect; an echo takes a round trip', async () => {
  const link = await startDelayProxy({ target: { host: '127.0.0.1', port }, rttMs: 40 });
  try {
    const t0 = performance.now();
    const s = await connect(link.port);
    assert.equal((await readBytes(s, 6)).toString(), 'hello\n');
    assert.ok(performance.now() - t0 >= 79, `greeting after ${performance.now() - t0} ms`);
    const t1 = performance.now();
    s.write('ping');
    assert.equal((await readBytes(s, 4)).toString(), 'ping');
    assert.ok(performance.now() - t1 >= 39, `echo after ${performance.now() - t1} ms`);
    s.destroy();
  } finally {
    await link.stop();
  }
});

test('32 MiB through a 1 MiB window arrive intact and in order, and the sender was paused', async () => {
  const link = await startDelayProxy({ target: { host: '127.0.0.1', port }, rttMs: 4, windowBytes: 2 ** 20 });
  try {
    const s = await connect(link.port);
    await readBytes(s, 6);
    const data = randomBytes(32 * 2 ** 20);
    const echoed = readBytes(s, data.length);
    for (let i = 0; i < data.length; i += 100_000) s.write(data.subarray(i, i + 100_000));
    const got = await echoed;
    assert.equal(createHash('sha256').update(got).digest('hex'), createHash('sha256').update(data).digest('hex'));
    const st = link.stats();
    assert.equal(st.bytesUp, data.length);
    assert.equal(st.bytesDown, data.length + 6);
    assert.ok(st.windowStalls > 0, 'the window never filled');
    s.destroy();
  } finally {
    await link.stop();
  }
});

test('the bandwidth cap paces the link: 2 MB at 20 MB/s take at least 100 ms', async () => {
  const link = await startDelayProxy({ target: { host: '127.0.0.1', port }, rttMs: 0, bytesPerSec: 20e6 });
  try {
    const s = await connect(link.port);
    await readBytes(s, 6);
    const t0 = performance.now();
    const echoed = readBytes(s, 2e6);
    s.write(randomBytes(2e6));
    await echoed;
    // Up and down each carry 2 MB at 20 MB/s, partly overlapped: at least the 100 ms of one direction.
    assert.ok(performance.now() - t0 >= 99, `took ${performance.now() - t0} ms`);
    s.destroy();
  } finally {
    await link.stop();
  }
});

test('a per-connection cap paces each connection alone: two connections carry twice what one does', async () => {
  const link = await startDelayProxy({ target: { host: '127.0.0.1', port }, rttMs: 0, connectionBytesPerSec: 20e6 });
  try {
    const [a, b] = await Promise.all([connect(link.port), connect(link.port)]);
    await Promise.all([readBytes(a!, 6), readBytes(b!, 6)]);
    const t0 = performance.now();
    const echoed = Promise.all([readBytes(a!, 2e6), readBytes(b!, 2e6)]);
    a!.write(randomBytes(2e6));
    b!.write(randomBytes(2e6));
    await echoed;
    const took = performance.now() - t0;
    // each connection's 2 MB at its own 20 MB/s: at least 100 ms (a shared 20 MB/s cap would need 200)
    assert.ok(took >= 99, `took ${took} ms`);
    assert.equal(link.stats().bytesDown, 2 * (2e6 + 6));
    a!.destroy();
    b!.destroy();
  } finally {
    await link.stop();
  }
});

test('a clean close travels through; stop() closes the listener and every relayed socket', async () => {
  const link = await startDelayProxy({ target: { host: '127.0.0.1', port }, rttMs: 10 });
  const s = await connect(link.port);
  await readBytes(s, 6);
  s.end('bye');
  assert.equal((await readBytes(s, 3)).toString(), 'bye'); // half-closed: the echo still comes back
  const open = await connect(link.port);
  const closed = new Promise((r) => open.once('close', r));
  await link.stop();
  await closed;
  assert.equal(link.stats().openSockets, 0);
  await assert.rejects(connect(link.port));
});

test('the proxy in a process of its own relays with the same delay and is gone after stop()', async () => {
  const link = await startDelayProxyProcess({ target: { host: '127.0.0.1', port }, rttMs: 40 });
  const t0 = performance.now();
  const s = await connect(link.port);
  assert.equal((await readBytes(s, 6)).toString(), 'hello\n');
  assert.ok(performance.now() - t0 >= 79, `greeting after ${performance.now() - t0} ms`);
  s.destroy();
  assert.equal((await link.stats()).bytesDown, 6);
  await link.stop();
  assert.throws(() => process.kill(link.pid, 0), 'the proxy process still runs');
});
