/**
 * The health store's tests on the whole domain (checks, the VFS's verdicts, reads' evidence), run on every store:
 * appliance/health/health.store.test.ts on LMDB, tests/integration/postgres/health-store-pg.test.ts on PostgreSQL.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterEach, test } from 'node:test';
import { EventBus, type SpoolEvents } from '../../../appliance/events/index.js';
import type { HealthVerdicts } from '../../../appliance/vfs/types.js';
import { VfsReader } from '../../../appliance/vfs/reader.js';
import { MapSource, memoryArticles, testReaderSettings } from '../vfs/memory.js';
import { healthHarness, type HarnessStores, type HealthHarness } from './harness.js';

export interface StoreUnderTest {
  /** Prefixes the tests' names (none: the LMDB run keeps its names). */
  name?: string;
  stores: HarnessStores;
  /** The verdicts of the store opened again on the harness's data (a restart). */
  reopen(h: HealthHarness): Promise<HealthVerdicts>;
  /** After each test, once the harness closed. */
  cleanup?(): Promise<void>;
}

export function healthStoreSuite(s: StoreUnderTest): void {
  const title = (t: string) => (s.name ? `${s.name}: ${t}` : t);
  let h: HealthHarness;
  afterEach(async () => {
    await h?.close();
    await s.cleanup?.();
  });

  async function checkNow(path: string) {
    const r = await h.health.service.check(path, undefined, true);
    await h.drain();
    return h.health.service.byId(r.id);
  }

  const names = (dir: string, showCorrupted = false) => h.vfs.list(dir, { showCorrupted }).map((n) => n.name);

  test(title('a corrupted verdict hides the file from listings through the port; the tree keeps no copy'), async () => {
    h = await healthHarness({}, {}, s.stores);
    const bad = await h.addFile('Bad', 10);
    h.articles.missing.add('Bad-0');
    assert.equal((await checkNow(bad)).status, 'corrupted');
    assert.deepEqual(names('/complete/movies/Bad'), [], 'hidden by default');
    assert.deepEqual(names('/complete/movies/Bad', true), ['Bad.mkv'], 'shown with X-Show-Corrupted');
    const node = h.vfs.stat(bad)!;
    assert.ok(!('health' in node) && !('missingSegments' in node), 'no health on the tree node');
    assert.equal(h.vfs.health.unavailable(bad, 'Bad-0'), true);
    // A store opened again on the same data (a restart) knows the verdict from its records.
    assert.equal((await s.reopen(h)).corrupted(bad), true);
    // A repair triggered keeps the verdict that asked for it; a healthy check shows the file again.
    h.articles.missing.clear();
    assert.equal((await checkNow(bad)).status, 'healthy');
    assert.deepEqual(names('/complete/movies/Bad'), ['Bad.mkv']);
    assert.equal(h.vfs.health.unavailable(bad, 'Bad-0'), false);
    assert.equal((await s.reopen(h)).corrupted(bad), false);
  });

  test(title('a removed record takes its verdict with it; a unit of work that throws changes nothing'), async () => {
    h = await healthHarness({}, {}, s.stores);
    const bad = await h.addFile('Gone', 10);
    h.articles.missing.add('Gone-9');
    const r = await checkNow(bad);
    assert.equal(h.vfs.health.corrupted(bad), true);
    await assert.rejects(
      h.healthStore.commit([
        { op: 'update', id: r.id, change: (x) => ({ ...x, verdict: 'healthy' }) },
        {
          op: 'update',
          id: r.id,
          change: () => {
            throw new Error('boom');
          },
        },
      ]),
      /boom/,
    );
    assert.equal((await h.healthStore.get(r.id))?.verdict, 'corrupted', 'rolled back');
    assert.equal(h.vfs.health.corrupted(bad), true, 'the port follows only what was committed');
    await h.health.service.remove(r.id);
    assert.equal(h.vfs.health.corrupted(bad), false);
  });

  test(
    title('read evidence: a read missing an article is recorded in the health store and cleared when a read gets it'),
    async () => {
      h = await healthHarness({ enabled: false }, {}, s.stores);
      const bytes = randomBytes(5_000);
      const { layout, articles } = memoryArticles(bytes, 1_000, 'r');
      const { files } = await h.vfs.addJob({
        category: 'movies',
        jobName: 'Read',
        files: [{ name: 'read.bin', size: bytes.length, layout }],
      });
      const path = files[0]!;
      await h.until(async () => (await h.healthStore.byPath(path)) !== undefined);
      const source = new MapSource(articles);
      source.missing.add('r2@test');
      const read = async () => {
        const events = new EventBus<SpoolEvents>();
        const reader = new VfsReader(h.vfs, source, testReaderSettings, events);
        // As app/article-failures.ts wires them in the app.
        events.on('read.article.failed', (f) => void h.health.service.readFailed(f));
        events.on('read.article.recovered', (r) => void h.health.service.readRecovered(r.path, r.messageIds));
        const parts: Uint8Array[] = [];
        for await (const c of reader.read(path, 2_000, 1_000, new AbortController().signal)) parts.push(c);
        return Buffer.concat(parts);
      };
      await assert.rejects(read());
      await h.until(() => h.vfs.health.unavailable(path, 'r2@test'));
      assert.deepEqual((await h.healthStore.byPath(path))!.readEvidence, ['r2@test'], 'on the record');
      assert.deepEqual([...(await h.health.service.fileHealth(path)).unavailable!], ['r2@test']);
      assert.ok(!('missingSegments' in h.vfs.stat(path)!), 'nothing on the tree node');

      source.missing.clear();
      assert.deepEqual(await read(), bytes.subarray(2_000, 3_000));
      await h.until(() => !h.vfs.health.unavailable(path, 'r2@test'));
      assert.deepEqual((await h.healthStore.byPath(path))!.readEvidence, [], 'cleared on the record');
      assert.deepEqual([...(await h.health.service.fileHealth(path)).unavailable!], []);
    },
  );
}
