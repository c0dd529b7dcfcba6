import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { AppError } from '../errors/app-error.js';
import { memoryLogger } from '../logging/logger.js';
import { startSharing, type SharedConfigStore } from './config-share.js';
import { ConfigService } from './config.service.js';
import { NODE_LOCAL_KEYS, sharedPart, withNodeLocal } from './node-local.js';
import type { SharedConfigRow } from './shared-link.js';

// Sharing on an in-memory store (the PostgreSQL one: tests/integration/postgres/config-pg.test.ts).

function memoryStore() {
  let row: SharedConfigRow | null = null;
  const watchers = new Set<(v?: number) => void>();
  const state = { down: false, silent: false };
  const store: SharedConfigStore = {
    async seed(doc) {
      if (row) return { ...row, seeded: false };
      row = { version: 1, doc: structuredClone(doc) };
      return { ...row, seeded: true };
    },
    async read() {
      if (state.down) throw new Error('connection refused');
      return row && structuredClone(row);
    },
    async write(doc, expected) {
      if (state.down) throw new Error('connection refused');
      if ((row?.version ?? 0) !== expected) return null;
      row = { version: expected + 1, doc: structuredClone(doc) };
      if (!state.silent) for (const w of watchers) queueMicrotask(() => w(expected + 1));
      return expected + 1;
    },
    async watch(changed) {
      watchers.add(changed);
      return () => watchers.delete(changed);
    },
  };
  return { store, state, row: () => row };
}

async function openNode() {
  const dir = mkdtempSync(join(tmpdir(), 'spool-share-'));
  const logger = memoryLogger();
  const config = await ConfigService.open({ dataDir: dir, env: {}, logger });
  return { dir, config, logger, [Symbol.dispose]: () => rmSync(dir, { recursive: true, force: true }) };
}

test('the shared part leaves every node-local key out; a node puts its own back', async () => {
  using n = await openNode();
  const mine = n.config.get();
  const shared = sharedPart(mine);
  assert.equal('mount_path' in shared, false);
  assert.equal('rclone' in shared, false);
  assert.equal('log' in shared, false);
  assert.equal('root_path' in (shared.metadata as object), false);
  assert.equal('port' in (shared.webdav as object), false);
  assert.equal('probe_cache_size_mb' in (shared.streaming as object), false);
  assert.equal('max_cache_size_mb' in (shared.streaming as object), true, 'the rest of the section is shared');
  assert.equal(NODE_LOCAL_KEYS.length, 7);
  // whatever the document says of node-local keys, the node's own win
  const foreign = { ...shared, mount_path: '/elsewhere', webdav: { ...(shared.webdav as object), port: 1 } };
  const back = withNodeLocal(foreign, mine) as typeof mine;
  assert.equal(back.mount_path, mine.mount_path);
  assert.equal(back.webdav.port, mine.webdav.port);
  assert.deepEqual(back.rclone, mine.rclone);
  assert.equal(withNodeLocal('not a mapping', mine), 'not a mapping');
});

test('a save the shared store cannot take fails with its reason and changes nothing on the node', async () => {
  using n = await openNode();
  const mem = memoryStore();
  const stop = await startSharing(n.config, mem.store, n.logger);
  const before = readFileSync(n.config.path, 'utf8');
  mem.state.down = true;
  await assert.rejects(n.config.patchSection('health', { max_retries: 5 }), (err: unknown) => {
    assert.ok(err instanceof AppError && err.code === 'UNEXPECTED');
    assert.match(err.message, /could not be stored in the shared database: connection refused/);
    return true;
  });
  assert.equal(n.config.get().health.max_retries, 2);
  assert.equal(readFileSync(n.config.path, 'utf8'), before);
  // A node-local change needs no shared store.
  await n.config.patchSection('system', { mount_path: '/mnt/here' });
  assert.equal(n.config.get().mount_path, '/mnt/here');
  assert.equal(mem.row()?.version, 1);
  mem.state.down = false;
  await n.config.patchSection('health', { max_retries: 5 });
  assert.equal(mem.row()?.version, 2);
  stop();
  // Stopped: saves are the node's own again.
  await n.config.patchSection('health', { max_retries: 4 });
  assert.equal(mem.row()?.version, 2);
});

test('a node that lost the race adopts the newer document, then saves on top of it', async () => {
  using a = await openNode();
  using b = await openNode();
  const mem = memoryStore();
  const stops = [await startSharing(a.config, mem.store, a.logger), await startSharing(b.config, mem.store, b.logger)];
  mem.state.silent = true; // B does not hear of A's save before its own
  await a.config.patchSection('health', { max_retries: 5 });
  // B's write is stale: it adopts A's document and prepares its save again on top.
  await b.config.patchSection('streaming', { max_download_workers: 11 });
  assert.equal(b.config.get().health.max_retries, 5);
  assert.equal(mem.row()?.version, 3);
  const doc = mem.row()?.doc as { health: { max_retries: number }; streaming: { max_download_workers: number } };
  assert.equal(doc.health.max_retries, 5);
  assert.equal(doc.streaming.max_download_workers, 11);
  for (const stop of stops) stop();
});
