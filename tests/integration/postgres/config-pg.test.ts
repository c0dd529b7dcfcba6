import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { CONFIG_PG_MIGRATIONS } from '../../../appliance/config/config-pg.migrations.js';
import { shareConfig } from '../../../appliance/config/config-pg.store.js';
import { ConfigService, type ChangeListener } from '../../../appliance/config/index.js';
import { memoryLogger } from '../../../appliance/logging/logger.js';
import { migratePg, openPgDb, type PgDb } from '../../../appliance/store/pg/index.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';
import { HUNG_RUN_MS, waitUntil } from '../../support/wait.js';

let server: PostgresServer;
before(async () => (server = await startPostgres()));
after(() => server?.stop());

const PROVIDER = {
  host: 'news.example.com',
  port: 563,
  username: 'u',
  password: 'provider-secret',
  max_connections: 8,
  tls: true,
};

/** One node: its own data dir and config file, its own pool on the shared database. */
interface Node {
  config: ConfigService;
  db: PgDb;
  logger: ReturnType<typeof memoryLogger>;
  stop: () => void;
  dir: string;
}

async function node(url: string, prepare?: (config: ConfigService) => Promise<unknown>): Promise<Node> {
  const dir = mkdtempSync(join(tmpdir(), 'spool-config-pg-'));
  const logger = memoryLogger();
  const config = await ConfigService.open({ dataDir: dir, env: {}, logger });
  await prepare?.(config);
  const db = await openPgDb(url, { logger });
  await migratePg(db, { config: CONFIG_PG_MIGRATIONS });
  const stop = await shareConfig(config, db, logger);
  return { config, db, logger, stop, dir };
}

async function close(...nodes: Node[]): Promise<void> {
  for (const n of nodes) {
    n.stop();
    await n.db.close();
    rmSync(n.dir, { recursive: true, force: true });
  }
}

/** The next 'change' of `config` (a save that never arrives fails the test after HUNG_RUN_MS: a hung run). */
function nextChange(config: ConfigService): Promise<Parameters<ChangeListener>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no config change after ${HUNG_RUN_MS} ms`)), HUNG_RUN_MS);
    timer.unref();
    const off = config.on('change', (...args) => {
      clearTimeout(timer);
      off();
      resolve(args);
    });
  });
}

async function until(check: () => boolean, what: string): Promise<void> {
  await waitUntil(what, check, { everyMs: 20 });
}

test('the first node seeds the shared document; the second adopts it and keeps its node-local keys', async () => {
  const url = await server.createDatabase();
  const a = await node(url, async (c) => {
    await c.addProvider(PROVIDER);
    await c.patchSection('system', { mount_path: '/mnt/a' });
  });
  const b = await node(url, async (c) => {
    await c.patchSection('import', { max_processor_workers: 7 });
    await c.patchSection('system', { mount_path: '/mnt/b' });
    await c.patchSection('metadata', { root_path: 'metadata-b' });
  });
  try {
    assert.match(a.logger.lines.join('\n'), /seeded the shared configuration/);
    const [provider] = b.config.get().providers;
    assert.equal(provider?.host, 'news.example.com');
    assert.equal(provider?.password, 'provider-secret');
    assert.equal(provider?.id, a.config.get().providers[0]?.id);
    // A's document wins over B's own settings, except what belongs to B alone.
    assert.equal(b.config.get().import.max_processor_workers, a.config.get().import.max_processor_workers);
    assert.equal(b.config.get().metadata.root_path, 'metadata-b');
    assert.equal(b.config.get().mount_path, '/mnt/b');
    // Adopted at start: it is what B starts with, no restart banner; the file holds it for the next start.
    assert.deepEqual(b.config.pendingRestart(), []);
    const reopened = await ConfigService.open({ dataDir: b.dir, env: {}, logger: memoryLogger() });
    assert.equal(reopened.get().providers[0]?.host, 'news.example.com');
    assert.equal(reopened.get().metadata.root_path, 'metadata-b');
    // Node-local keys are never in the shared document.
    const doc = (await a.db.query<{ doc: Record<string, unknown> }>('SELECT doc FROM spool_config')).rows[0]?.doc;
    assert.ok(doc && !('mount_path' in doc) && !('log' in doc) && !('rclone' in doc));
    assert.deepEqual(Object.keys(doc.metadata as object), []);
    assert.equal('port' in (doc.webdav as object), false);
  } finally {
    await close(a, b);
  }
});

test('a save on one node reaches the other: its change fires, restart-only fields raise its banner', async () => {
  const url = await server.createDatabase();
  const a = await node(url);
  const b = await node(url);
  try {
    const arrived = nextChange(b.config);
    await a.config.patchSection('health', { check_interval_seconds: 120 });
    const [next, , paths] = await arrived;
    assert.deepEqual(paths, ['health.check_interval_seconds']);
    assert.equal(next.health.check_interval_seconds, 120);
    assert.equal(b.config.get().health.check_interval_seconds, 120);
    const onDisk = await ConfigService.open({ dataDir: b.dir, env: {}, logger: memoryLogger() });
    assert.equal(onDisk.get().health.check_interval_seconds, 120);

    const restart = nextChange(b.config);
    await a.config.patchSection('import', { max_processor_workers: 5 });
    await restart;
    assert.deepEqual(b.config.pendingRestart(), ['import.max_processor_workers']);

    // A node-local change stays on its node; the next shared save still reaches the other.
    await a.config.patchSection('webdav', { port: 9999 });
    const later = nextChange(b.config);
    await a.config.patchSection('auth', { registration_enabled: true });
    assert.deepEqual((await later)[2], ['auth.registration_enabled']);
    assert.equal(b.config.get().webdav.port, 8080);
  } finally {
    await close(a, b);
  }
});

test('two nodes saving at once lose neither change', async () => {
  const url = await server.createDatabase();
  const a = await node(url);
  const b = await node(url);
  try {
    await Promise.all([
      a.config.patchSection('health', { max_concurrent_jobs: 4 }),
      b.config.patchSection('streaming', { max_download_workers: 9 }),
      a.config.addProvider(PROVIDER),
      b.config.patchSection('auth', { registration_enabled: true }),
    ]);
    const settled = (c: ConfigService) =>
      c.get().health.max_concurrent_jobs === 4 &&
      c.get().streaming.max_download_workers === 9 &&
      c.get().providers.length === 1 &&
      c.get().auth.registration_enabled;
    await until(() => settled(a.config) && settled(b.config), 'both nodes to hold every save');
    const row = (await a.db.query<{ version: number }>('SELECT version FROM spool_config')).rows[0];
    assert.equal(row?.version, 5);
  } finally {
    await close(a, b);
  }
});

test('an invalid shared document is refused with a clear log; the node keeps its last good config', async () => {
  const url = await server.createDatabase();
  const a = await node(url);
  const b = await node(url);
  try {
    await a.db.tx(async (tx) => {
      await tx.query(
        `UPDATE spool_config SET version = version + 1,
           doc = jsonb_set(doc, '{streaming,max_download_workers}', '999')`,
      );
      await tx.query(`SELECT pg_notify('spool_config', '2')`);
    });
    await until(() => b.logger.lines.some((l) => l.includes('refused the shared configuration')), 'the refusal');
    const line = b.logger.lines.find((l) => l.includes('refused the shared configuration')) ?? '';
    assert.match(line, /streaming\.max_download_workers: Must be between 1 and 50/);
    assert.match(line, /\(version 2\) is invalid/);
    assert.notEqual(b.config.get().streaming.max_download_workers, 999);
    // A save on top of a document this node cannot read is refused (400, naming why), and stores nothing.
    await assert.rejects(
      b.config.patchSection('health', { max_retries: 5 }),
      /shared configuration \(version 2\) is invalid/,
    );
    assert.equal(b.config.get().health.max_retries, 2);

    // A node starting on it keeps its own file.
    const c = await node(url, (cfg) => cfg.patchSection('health', { max_retries: 4 }));
    try {
      assert.equal(c.config.get().health.max_retries, 4);
      assert.ok(c.logger.lines.some((l) => l.includes('refused the shared configuration')));
    } finally {
      await close(c);
    }
  } finally {
    await close(a, b);
  }
});

test('secrets adopted from the shared document stay write-only in what the API answers', async () => {
  const url = await server.createDatabase();
  const a = await node(url);
  const b = await node(url);
  try {
    const arrived = nextChange(b.config);
    await a.config.addProvider(PROVIDER);
    await a.config.patchSection('arrs', {
      radarr_instances: [{ name: 'r', url: 'http://radarr:7878', api_key: 'radarr-key' }],
    });
    await arrived;
    await until(() => b.config.get().arrs.radarr_instances.length === 1, 'the arr instance');
    const shown = JSON.stringify(b.config.redacted());
    assert.equal(shown.includes('provider-secret'), false);
    assert.equal(shown.includes('radarr-key'), false);
    assert.equal(b.config.listProviders()[0]?.password_set, true);
    // Saving the form back as shown (secrets masked) keeps them, on both nodes.
    const back = nextChange(a.config);
    await b.config.patchSection('arrs', b.config.redacted().arrs);
    await b.config.updateProvider(b.config.get().providers[0]!.id, { password: '********', max_connections: 3 });
    await back;
    await until(() => a.config.get().providers[0]?.max_connections === 3, 'the provider change');
    assert.equal(a.config.get().providers[0]?.password, 'provider-secret');
    assert.equal(a.config.get().arrs.radarr_instances[0]?.api_key, 'radarr-key');
  } finally {
    await close(a, b);
  }
});
