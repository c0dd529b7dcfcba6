import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatRequest } from './format.js';
import type { Notice } from './notice.js';

const notice: Notice = {
  kind: 'import_failed',
  title: 'Import failed: Show.S01E01',
  message: 'Articles missing on every provider',
  severity: 'error',
  time: Date.UTC(2026, 0, 2, 3, 4, 5),
  details: { queue_item_id: 7 },
};

test('webhook: POST JSON {event, title, message, severity, time, details}, bearer token when set', () => {
  const r = formatRequest({ type: 'webhook', url: 'http://h/hook', token: 's3cret' }, notice);
  assert.equal(r.url, 'http://h/hook');
  assert.equal(r.headers['Content-Type'], 'application/json');
  assert.equal(r.headers.Authorization, 'Bearer s3cret');
  assert.deepEqual(JSON.parse(r.body), {
    event: 'import_failed',
    title: 'Import failed: Show.S01E01',
    message: 'Articles missing on every provider',
    severity: 'error',
    time: '2026-01-02T03:04:05.000Z',
    details: { queue_item_id: 7 },
  });
  assert.equal(formatRequest({ type: 'webhook', url: 'http://h', token: '' }, notice).headers.Authorization, undefined);
});

test('ntfy: the message as the body, Title, Priority and Tags headers, bearer token when set', () => {
  const r = formatRequest({ type: 'ntfy', url: 'http://ntfy/spool', token: 'tk_1' }, notice);
  assert.equal(r.url, 'http://ntfy/spool');
  assert.equal(r.body, 'Articles missing on every provider');
  assert.equal(r.headers.Title, 'Import failed: Show.S01E01');
  assert.equal(r.headers.Priority, '5');
  assert.equal(r.headers.Tags, 'rotating_light,spool,import_failed');
  assert.equal(r.headers.Authorization, 'Bearer tk_1');
  const info = formatRequest({ type: 'ntfy', url: 'http://n/t', token: '' }, { ...notice, severity: 'info' });
  assert.equal(info.headers.Priority, '3');
  assert.equal(info.headers.Authorization, undefined);
});

test('ntfy: a title with line breaks or characters a header cannot carry is made safe', () => {
  const r = formatRequest({ type: 'ntfy', url: 'http://n/t', token: '' }, { ...notice, title: 'a\r\nb ✓' });
  assert.equal(r.headers.Title, 'a b ?');
});

test('discord: {content, embeds} with the title, message, colour and time; no token header', () => {
  const r = formatRequest({ type: 'discord', url: 'http://d/api/webhooks/1/x', token: 'ignored' }, notice);
  const body = JSON.parse(r.body) as { content: string; embeds: Record<string, unknown>[] };
  assert.equal(body.content, '**Import failed: Show.S01E01**');
  assert.equal(body.embeds.length, 1);
  assert.equal(body.embeds[0]!.title, 'Import failed: Show.S01E01');
  assert.equal(body.embeds[0]!.description, 'Articles missing on every provider');
  assert.equal(body.embeds[0]!.timestamp, '2026-01-02T03:04:05.000Z');
  assert.equal(body.embeds[0]!.color, 0xef4444);
  assert.equal(r.headers.Authorization, undefined);
});

test('apprise: {title, body, type}, an error as failure and a warning as warning', () => {
  const r = formatRequest({ type: 'apprise', url: 'http://a/notify/spool', token: '' }, notice);
  assert.deepEqual(JSON.parse(r.body), {
    title: 'Import failed: Show.S01E01',
    body: 'Articles missing on every provider',
    type: 'failure',
  });
  const warn = formatRequest({ type: 'apprise', url: 'http://a', token: '' }, { ...notice, severity: 'warning' });
  assert.equal((JSON.parse(warn.body) as { type: string }).type, 'warning');
});

test('discord: a long message is cut to the limits Discord accepts', () => {
  const long = { ...notice, title: 't'.repeat(300), message: 'm'.repeat(5000) };
  const body = JSON.parse(formatRequest({ type: 'discord', url: 'http://d', token: '' }, long).body) as {
    embeds: { title: string; description: string }[];
  };
  assert.equal(body.embeds[0]!.title.length, 256);
  assert.equal(body.embeds[0]!.description.length, 4096);
});
