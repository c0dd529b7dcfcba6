import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HttpResponse } from 'uws-pack';
import { Reply } from './reply.js';

const fakeResponse = () => ({ onAborted: () => undefined }) as unknown as HttpResponse;

test('a header name or value with CR, LF or NUL is refused before anything is written (no header injection)', () => {
  const reply = new Reply(fakeResponse());
  for (const [name, value] of [
    ['X-Name', 'a\r\nSet-Cookie: evil=1'],
    ['X-Name', 'a\nb'],
    ['X-Name', 'a\u0000b'],
    ['X-Na\r\nme', 'a'],
  ] as const)
    assert.throws(() => reply.header(name, value), /line break or NUL/);
  assert.doesNotThrow(() => reply.header('Content-Disposition', "attachment; filename*=UTF-8''a%0D%0Ab"));
});

/** A uWS response whose socket takes `room` bytes until the test makes room (the client read) and calls writable. */
function socketOf(room: number) {
  let offset = 0;
  let writable: ((offset: number) => boolean) | undefined;
  const res = {
    onAborted: () => undefined,
    cork: (fn: () => void) => fn(),
    writeStatus: () => res,
    writeHeader: () => res,
    getWriteOffset: () => offset,
    tryEnd(chunk: Uint8Array, total: number): [boolean, boolean] {
      const n = Math.min(room, chunk.byteLength);
      room -= n;
      offset += n;
      return [n === chunk.byteLength, offset >= total];
    },
    onWritable(fn: (offset: number) => boolean) {
      writable = fn;
      return res;
    },
  };
  return {
    res: res as unknown as HttpResponse,
    read(bytes: number): void {
      room += bytes;
      writable?.(offset);
    },
  };
}

test('bodyTaken counts what the socket took, a chunk it took in part included, not what was handed to it', async () => {
  const socket = socketOf(1_500);
  const reply = new Reply(socket.res);
  let handed = 0;
  async function* body() {
    for (let i = 0; i < 3; i++) {
      handed += 1_000;
      yield new Uint8Array(1_000);
    }
  }
  const streaming = reply.stream(body(), 3_000);
  await new Promise((r) => setImmediate(r));
  assert.equal(handed, 2_000);
  assert.equal(reply.bodyTaken, 1_500, 'the second chunk in part: the connection is full');
  socket.read(700);
  assert.equal(reply.bodyTaken, 2_000);
  socket.read(10_000);
  assert.equal(await streaming, true);
  assert.equal(reply.bodyTaken, 3_000);
});
