/**
 * The stream-link service through its storage port, run on every backend: LMDB (appliance/streamlinks/
 * stream-links.test.ts) and PostgreSQL (tests/integration/postgres/stream-links-pg.test.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memoryLogger } from '../../../appliance/logging/logger.js';
import type { StreamLinkStore } from '../../../appliance/streamlinks/index.js';
import { StreamLinkService } from '../../../appliance/streamlinks/index.js';

export interface OpenedLinkStore {
  store: StreamLinkStore;
  close(): Promise<void> | void;
}

const FILM = '/content/movies/Film (2024)/Film (2024).mkv';

/** The token and the name of a link's URL. */
export function partsOf(url: string): { token: string; name: string } {
  const m = /^https:\/\/media\.example\.org\/spool\/stream\/([^/]+)\/(.*)$/.exec(url);
  assert.ok(m, url);
  return { token: m[1]!, name: decodeURIComponent(m[2]!) };
}

export function streamLinkService(store: StreamLinkStore, now: () => number = Date.now) {
  const logger = memoryLogger();
  return { links: new StreamLinkService(store, () => 'https://media.example.org/spool/', logger, now), logger };
}

export function streamLinkStoreTests(open: () => Promise<OpenedLinkStore>): void {
  const withService = async (fn: (s: ReturnType<typeof setup>) => Promise<void>) => {
    const opened = await open();
    try {
      await fn(setup(opened.store));
    } finally {
      await opened.close();
    }
  };
  const setup = (store: StreamLinkStore) => {
    let now = Date.UTC(2026, 10, 28);
    return { ...streamLinkService(store, () => now), store, advance: (s: number) => (now += s * 1000) };
  };

  test('a file link opens its own file and nothing else', () =>
    withService(async ({ links }) => {
      const { url } = await links.create({ path: FILM, createdBy: 'admin' });
      const { token, name } = partsOf(url);
      assert.equal(name, 'Film (2024).mkv');
      assert.deepEqual(await links.check(token, `/${name}`), { ok: true, path: FILM, link: (await links.list())[0] });
      assert.deepEqual(await links.check(token, '/Other.mkv'), { ok: false, reason: 'outside' });
      assert.deepEqual(await links.check(token, `/../${name}`), { ok: false, reason: 'outside' });
    }));

  test('a folder link opens files under its folder only', () =>
    withService(async ({ links }) => {
      const { url } = await links.create({ path: '/content/tv/Show', folder: true, createdBy: 'admin' });
      const { token } = partsOf(url);
      const inside = await links.check(token, '/S01/ep1.mkv');
      assert.equal(inside.ok && inside.path, '/content/tv/Show/S01/ep1.mkv');
      assert.deepEqual(await links.check(token, '/'), { ok: false, reason: 'outside' });
      assert.deepEqual(await links.check(token, '/S01/../../Other/x.mkv'), { ok: false, reason: 'outside' });
    }));

  test('a tampered, expired, revoked or malformed link is refused and logged; rotating the secret revokes all', () =>
    withService(async ({ links, logger, advance }) => {
      const a = partsOf((await links.create({ path: FILM, ttlSeconds: 60, createdBy: 'admin' })).url);
      const b = partsOf((await links.create({ path: FILM, createdBy: 'admin' })).url);
      const [id, exp, sig] = a.token.split('.') as [string, string, string];
      const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
      const tampered = { ok: false, reason: 'tampered' };
      assert.deepEqual(await links.check(`${id}.${exp}.${flipped}`, `/${a.name}`), tampered);
      assert.deepEqual(await links.check(`${id}.${Number(exp) + 3600}.${sig}`, `/${a.name}`), tampered);
      assert.deepEqual(await links.check(`${id}.0.${sig}`, `/${a.name}`), tampered);
      assert.equal((await links.check(a.token, `/${a.name}`)).ok, true);
      advance(60);
      assert.deepEqual(await links.check(a.token, `/${a.name}`), { ok: false, reason: 'expired' });
      assert.deepEqual(await links.check('not-a-link', `/${a.name}`), { ok: false, reason: 'malformed' });
      assert.equal((await links.check(b.token, `/${b.name}`)).ok, true);
      await links.rotateSecret();
      assert.deepEqual(await links.check(b.token, `/${b.name}`), tampered);
      const c = await links.create({ path: FILM, createdBy: 'admin' });
      assert.equal(await links.revoke(c.link.id), true);
      assert.equal(await links.revoke(c.link.id), false, 'revoked once');
      assert.deepEqual(await links.check(partsOf(c.url).token, `/${b.name}`), { ok: false, reason: 'unknown' });
      const refusals = logger.lines.filter((l) => l.includes('stream link refused'));
      assert.equal(refusals.length, 7);
      assert.ok(
        refusals.every((l) => !l.includes(sig)),
        'the log never holds a signature',
      );
    }));

  test('links are listed oldest first and the secret stays the same until rotated', () =>
    withService(async ({ links, store, advance }) => {
      assert.deepEqual(await store.list(), []);
      const first = await store.secret();
      assert.ok((await store.secret()).equals(first));
      const one = await links.create({ path: FILM, createdBy: 'admin' });
      advance(5);
      const two = await links.create({ path: '/content/tv/Show', folder: true, createdBy: 'strm' });
      assert.deepEqual(await links.list(), [one.link, two.link]);
      assert.equal(await links.urlOf(one.link), one.url, 'a listed link answers the URL it was made with');
      await store.rotateSecret();
      assert.ok(!(await store.secret()).equals(first));
    }));
}
