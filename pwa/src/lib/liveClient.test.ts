import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Backoff, LiveClient, type LiveSocket, type LiveState } from './liveClient';
import type { LiveEventMessage } from '../api/types';

// The live client's reconnect rule with a manual clock: 1 s doubling to 30 s, back to 1 s after a hello.
class ManualTimers {
  now = 0;
  private tasks: { at: number; fn: () => void; done: boolean }[] = [];
  schedule = (fn: () => void, ms: number) => {
    const task = { at: this.now + ms, fn, done: false };
    this.tasks.push(task);
    return () => void (task.done = true);
  };
  /** Moves time forward, running what falls due. */
  advance(ms: number): void {
    const until = this.now + ms;
    for (;;) {
      const due = this.tasks.filter((t) => !t.done && t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      due.done = true;
      this.now = due.at;
      due.fn();
    }
    this.now = until;
  }
}

class FakeSocket implements LiveSocket {
  sent: string[] = [];
  closed = false;
  onmessage: LiveSocket['onmessage'] = null;
  onclose: LiveSocket['onclose'] = null;
  onerror: LiveSocket['onerror'] = null;
  send(text: string) {
    this.sent.push(text);
  }
  close() {
    this.closed = true;
  }
  say(msg: unknown) {
    this.onmessage?.({ data: JSON.stringify(msg) } as MessageEvent);
  }
  drop() {
    this.onclose?.({} as CloseEvent);
  }
}

function setup() {
  const timers = new ManualTimers();
  const sockets: { at: number; socket: FakeSocket }[] = [];
  const states: LiveState[] = [];
  const events: LiveEventMessage[] = [];
  const client = new LiveClient({
    url: 'ws://spool.test/api/live',
    connect: () => {
      const socket = new FakeSocket();
      sockets.push({ at: timers.now, socket });
      return socket;
    },
    timers,
    topics: () => ['queue.item.added', 'health.record.changed'],
    onEvent: (m) => events.push(m),
    onState: (s) => states.push(s),
  });
  const last = () => sockets[sockets.length - 1]!.socket;
  return { timers, sockets, states, events, client, last };
}

const HELLO = { type: 'hello', version: '0.0.1', topics: [] };

test('Backoff: 1 s doubling to 30 s, reset to 1 s', () => {
  const b = new Backoff();
  assert.deepEqual(
    Array.from({ length: 8 }, () => b.next()),
    [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000],
  );
  b.reset();
  assert.equal(b.next(), 1000);
});

test('live after the hello, which is answered with the wanted topics; events reach the handler', () => {
  const { client, states, last, events } = setup();
  client.start();
  assert.deepEqual(states, ['connecting']);
  last().say(HELLO);
  assert.deepEqual(states, ['connecting', 'live']);
  assert.deepEqual(
    last().sent.map((t) => JSON.parse(t) as unknown),
    [{ type: 'subscribe', topics: ['queue.item.added', 'health.record.changed'] }],
  );
  const event = { type: 'event', topic: 'queue.item.added', data: { id: 1 } };
  last().say(event);
  last().onmessage?.({ data: 'not json' } as MessageEvent);
  assert.deepEqual(events, [event]);
  client.stop();
});

test('a refused or dropped socket is retried after 1, 2, 4 s ...; a hello starts the waits again at 1 s', () => {
  const { client, timers, sockets, states, last } = setup();
  client.start();
  const waits: number[] = [];
  for (let i = 0; i < 6; i++) {
    const droppedAt = timers.now;
    last().drop();
    timers.advance(60_000);
    waits.push(sockets.at(-1)!.at - droppedAt);
  }
  assert.deepEqual(waits, [1000, 2000, 4000, 8000, 16000, 30000]);
  assert.equal(states.at(-1), 'connecting');
  last().say(HELLO);
  last().drop();
  assert.equal(states.at(-1), 'down');
  timers.advance(999);
  assert.equal(sockets.length, 7, 'waits the full second');
  timers.advance(1);
  assert.equal(sockets.length, 8);
  client.stop();
  assert.equal(last().closed, true);
  assert.equal(states.at(-1), 'off');
  timers.advance(120_000);
  assert.equal(sockets.length, 8, 'stopped: no more attempts');
});

test('resubscribe sends the topics wanted now, only while live', () => {
  const { client, last } = setup();
  client.start();
  client.resubscribe();
  assert.equal(last().sent.length, 0);
  last().say(HELLO);
  client.resubscribe();
  assert.equal(last().sent.length, 2);
  client.stop();
});
