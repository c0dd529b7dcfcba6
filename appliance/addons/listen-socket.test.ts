import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { sendBufferOf, setListenSendBuffer } from './listen-socket.js';

/** A Node listener on a free port of `host`, and the server side of one connection to it. */
async function listenerWithConnection(host: string): Promise<{ port: number; accepted: net.Socket; close(): void }> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => server.listen(0, host, resolve).once('error', reject));
  const port = (server.address() as net.AddressInfo).port;
  const set = setListenSendBuffer(port, 64 * 1024);
  assert.equal(typeof set, 'number', `set on ${host}: ${String(set)}`);
  assert.ok((set as number) >= 64 * 1024, 'the kernel reports at least what was asked (Linux: double)');
  const accepting = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
  const client = net.connect(port, host);
  const accepted = await accepting;
  return {
    port,
    accepted,
    close() {
      client.destroy();
      accepted.destroy();
      server.close();
    },
  };
}

function fdOf(socket: net.Socket): number {
  const fd = (socket as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
  assert.equal(typeof fd, 'number');
  return fd as number;
}

test('the send buffer set on a listening socket is reported back and inherited by the sockets it accepts', async () => {
  const conn = await listenerWithConnection('127.0.0.1');
  try {
    const reported = setListenSendBuffer(conn.port, 64 * 1024);
    assert.equal(sendBufferOf(fdOf(conn.accepted)), reported, 'the accepted socket has the listener’s buffer');
    assert.ok((reported as number) < 1024 * 1024, 'fixed, far under what autotuning grows to (4 MiB)');
  } finally {
    conn.close();
  }
});

test('an IPv6 listening socket is found by its port too', async (t) => {
  const probe = net.createServer();
  const hasV6 = await new Promise<boolean>((resolve) => {
    probe.once('error', () => resolve(false)).listen(0, '::1', () => resolve(true));
  });
  probe.close();
  if (!hasV6) {
    t.skip('no IPv6 loopback on this host');
    return;
  }
  const conn = await listenerWithConnection('::1');
  try {
    assert.equal(sendBufferOf(fdOf(conn.accepted)), setListenSendBuffer(conn.port, 64 * 1024));
  } finally {
    conn.close();
  }
});

test('a port this process does not listen on gives a sentence, not a crash', async () => {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  assert.equal(setListenSendBuffer(port, 64 * 1024), `no listening TCP socket of this process has port ${port}`);
  assert.equal(setListenSendBuffer(0, 64 * 1024), 'not a TCP port: 0');
  assert.equal(setListenSendBuffer(port, 0), 'not a buffer size: 0');
  assert.match(String(sendBufferOf(1_000_000)), /failed \(errno 9\)/, 'EBADF for a descriptor that is not open');
});
