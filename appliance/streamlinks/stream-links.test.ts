import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { memoryLogger } from '../logging/logger.js';
import type { StreamLinkRecord, StreamLinkStore } from './stream-links.port.js';
import { StreamLinkService } from './stream-links.service.js';

function memoryStore(): StreamLinkStore {
  let secret = randomBytes(32);
  const links = new Map<string, StreamLinkRecord>();
  return {
    secret: () => secret,
    rotateSecret: async () => void (secret = randomBytes(32)),
    get: (id) => links.get(id),
    put: async (l) => void links.set(l.id, l),
    remove: async (id) => links.delete(id),
    list: () => [...links.values()],
  };
}

function setup() {
  let now = Date.UTC(2026, 10, 28);
  const logger = memoryLogger();
  const links = new StreamLinkService(
    memoryStore(),
    () => 'https://media.example.org/spool/',
    logger,
    () => now,
  );
  return { links, logger, advance: (s: number) => (now += s * 1000) };
}

/** The token and the name of a link's URL. */
function partsOf(url: string): { token: string; name: string } {
  const m = /^https:\/\/media\.example\.org\/spool\/stream\/([^/]+)\/(.*)$/.exec(url);
  assert.ok(m, url);
  return { token: m[1]!, name: decodeURIComponent(m[2]!) };
}

const FILM = '/content/movies/Film (2024)/Film (2024).mkv';

test('a file link opens its own file and nothing else', async () => {
  const { links } = setup();
  const { url } = await links.create({ path: FILM, createdBy: 'admin' });
  const { token, name } = partsOf(url);
  assert.equal(name, 'Film (2024).mkv');
  assert.deepEqual(links.check(token, `/${name}`).ok && links.check(token, `/${name}`), {
    ok: true,
    path: FILM,
    link: links.list()[0],
  });
  assert.deepEqual(links.check(token, '/Other.mkv'), { ok: false, reason: 'outside' });
  assert.deepEqual(links.check(token, `/../${name}`), { ok: false, reason: 'outside' });
});

test('a folder link opens files under its folder only', async () => {
  const { links } = setup();
  const { url } = await links.create({ path: '/content/tv/Show', folder: true, createdBy: 'admin' });
  const { token } = partsOf(url);
  const inside = links.check(token, '/S01/ep1.mkv');
  assert.equal(inside.ok && inside.path, '/content/tv/Show/S01/ep1.mkv');
  assert.deepEqual(links.check(token, '/'), { ok: false, reason: 'outside' });
  assert.deepEqual(links.check(token, '/S01/../../Other/x.mkv'), { ok: false, reason: 'outside' });
});

test('a tampered, expired, revoked or malformed link is refused and logged; rotating the secret revokes all', async () => {
  const { links, logger, advance } = setup();
  const a = partsOf((await links.create({ path: FILM, ttlSeconds: 60, createdBy: 'admin' })).url);
  const b = partsOf((await links.create({ path: FILM, createdBy: 'admin' })).url);
  const [id, exp, sig] = a.token.split('.') as [string, string, string];
  const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
  assert.deepEqual(links.check(`${id}.${exp}.${flipped}`, `/${a.name}`), { ok: false, reason: 'tampered' });
  assert.deepEqual(links.check(`${id}.${Number(exp) + 3600}.${sig}`, `/${a.name}`), { ok: false, reason: 'tampered' });
  assert.deepEqual(links.check(`${id}.0.${sig}`, `/${a.name}`), { ok: false, reason: 'tampered' });
  assert.equal(links.check(a.token, `/${a.name}`).ok, true);
  advance(60);
  assert.deepEqual(links.check(a.token, `/${a.name}`), { ok: false, reason: 'expired' });
  assert.deepEqual(links.check('not-a-link', `/${a.name}`), { ok: false, reason: 'malformed' });
  assert.equal(links.check(b.token, `/${b.name}`).ok, true);
  await links.rotateSecret();
  assert.deepEqual(links.check(b.token, `/${b.name}`), { ok: false, reason: 'tampered' });
  const c = await links.create({ path: FILM, createdBy: 'admin' });
  assert.equal(await links.revoke(c.link.id), true);
  assert.deepEqual(links.check(partsOf(c.url).token, `/${b.name}`), { ok: false, reason: 'unknown' });
  const refusals = logger.lines.filter((l) => l.includes('stream link refused'));
  assert.equal(refusals.length, 7);
  assert.ok(
    refusals.every((l) => !l.includes(sig)),
    'the log never holds a signature',
  );
});
