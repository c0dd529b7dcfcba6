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
