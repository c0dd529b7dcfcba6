import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { AppError } from '../errors/app-error.js';
import { memoryLogger } from '../logging/logger.js';
import { parseConfigText, writeFileAtomic } from './config.file.js';
import { ConfigLoadError, ConfigService, resolveLocation } from './config.service.js';

function tempDir(): { dir: string; [Symbol.dispose](): void } {
  const dir = mkdtempSync(join(tmpdir(), 'spool-config-'));
  return { dir, [Symbol.dispose]: () => rmSync(dir, { recursive: true, force: true }) };
}

const open = (dir: string) => ConfigService.open({ dataDir: dir, env: {}, logger: memoryLogger() });

async function rejectsWith(promise: Promise<unknown>, check: (err: AppError) => void): Promise<void> {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof AppError, String(err));
    check(err);
    return true;
  });
}

test('file location: SPOOL_CONFIG, else SPOOL_DATA/config.yaml, else ./data/config.yaml', () => {
  assert.equal(resolveLocation({ env: { SPOOL_CONFIG: '/etc/spool.yaml' } }).configPath, '/etc/spool.yaml');
  assert.equal(resolveLocation({ env: { SPOOL_DATA: '/var/spool' } }).configPath, '/var/spool/config.yaml');
  assert.equal(resolveLocation({ env: {} }).configPath, join(process.cwd(), 'data', 'config.yaml'));
});

test('first run writes the defaults, private to the owner, and reads them back', async () => {
  using tmp = tempDir();
  const config = await open(tmp.dir);
  assert.equal(config.path, join(tmp.dir, 'config.yaml'));
  assert.equal(statSync(config.path).mode & 0o777, 0o600);
  const text = readFileSync(config.path, 'utf8');
  assert.match(text, /^# Spool configuration/);
  assert.equal(parse(text).webdav.port, 8080);
  assert.equal(config.get().metadata.root_path, join(tmp.dir, 'metadata'));
  const again = await open(tmp.dir);
  assert.deepEqual(again.get(), config.get());
});

test('a hand-edited file with errors refuses to load and lists every error', async () => {
  using tmp = tempDir();
  writeFileSync(join(tmp.dir, 'config.yaml'), 'webdav:\n  port: 70000\nhealth:\n  max_retries: 9\nfoo: 1\n');
  await assert.rejects(open(tmp.dir), (err: unknown) => {
    assert.ok(err instanceof ConfigLoadError);
    assert.deepEqual(err.errors.map((e) => e.field).sort(), ['foo', 'health.max_retries', 'webdav.port']);
    assert.match(err.message, /webdav\.port: Must be between 1 and 65535/);
    assert.match(err.message, /health\.max_retries: Must be between 0 and 5/);
    return true;
  });
  writeFileSync(join(tmp.dir, 'config.yaml'), 'webdav:\n  port: 1\n  port: 2\n');
  await assert.rejects(open(tmp.dir), /YAML syntax error/);
});

test('a partial file fills the rest from defaults without rewriting the file', async () => {
  using tmp = tempDir();
  const file = join(tmp.dir, 'config.yaml');
  writeFileSync(file, '# mine\nwebdav:\n  port: 9000\n');
  const config = await open(tmp.dir);
  assert.equal(config.get().webdav.port, 9000);
  assert.equal(config.get().import.max_processor_workers, 2);
  assert.equal(readFileSync(file, 'utf8'), '# mine\nwebdav:\n  port: 9000\n');
});

test('the queue interval and the complete dir are restart-only: changing them raises the banner', async () => {
  using tmp = tempDir();
  const config = await open(tmp.dir);
  await config.patchSection('import', { queue_processing_interval_seconds: 30 });
  const result = await config.patchSection('sabnzbd', { complete_dir: '/done' });
  assert.deepEqual(result.restart_required, ['import.queue_processing_interval_seconds', 'sabnzbd.complete_dir']);
  assert.deepEqual((await config.patchSection('import', { queue_processing_interval_seconds: 5 })).restart_required, [
    'sabnzbd.complete_dir',
  ]);
});

test('providers written without an id get one that is saved and stable', async () => {
  using tmp = tempDir();
  writeFileSync(join(tmp.dir, 'config.yaml'), 'providers:\n  - host: news.example.com\n');
  const first = await open(tmp.dir);
  const id = first.get().providers[0]?.id;
  assert.ok(id);
  assert.equal((await open(tmp.dir)).get().providers[0]?.id, id);
});

test('patchSection merges, keeps secrets, persists, and reports restart-only changes', async () => {
  using tmp = tempDir();
  const config = await open(tmp.dir);
  await config.patchSection('webdav', { password: 'hunter22' });
  const result = await config.patchSection('webdav', { port: 9090, password: '********', password_set: true });
  assert.deepEqual(result.restart_required, ['webdav.port']);
  assert.deepEqual(result.config.webdav, { port: 9090, user: 'spool', max_sidecar_size_mb: 16, password_set: true });
  assert.equal(config.get().webdav.password, 'hunter22');
  await config.patchSection('import', { max_processor_workers: 4 });
  await config.patchSection('rclone', { transfers: 8, mount_path: '/mnt/media' });
  const last = await config.patchSection('system', { mount_path: '/mnt/other' });
  assert.deepEqual(last.restart_required, ['webdav.port', 'import.max_processor_workers']);
  const reopened = await open(tmp.dir);
  assert.equal(reopened.get().webdav.port, 9090);
  assert.equal(reopened.get().webdav.password, 'hunter22');
  assert.equal(reopened.get().rclone.transfers, 8);
  assert.equal(reopened.get().mount_path, '/mnt/other');
  assert.deepEqual(reopened.pendingRestart(), [], 'a fresh start has nothing pending');
  // Setting the port back clears the pending restart.
  assert.deepEqual((await config.patchSection('webdav', { port: 8080 })).restart_required, [
    'import.max_processor_workers',
  ]);
});

test('a bad patch changes nothing and names every bad field', async () => {
  using tmp = tempDir();
  const config = await open(tmp.dir);
  const before = readFileSync(config.path, 'utf8');
  await rejectsWith(config.patchSection('health', { max_retries: 7, max_concurrent_jobs: 0, bogus: 1 }), (err) => {
    assert.equal(err.status, 400);
    assert.deepEqual((err.details as { field: string }[]).map((e) => e.field).sort(), [
      'health.bogus',
      'health.max_concurrent_jobs',
      'health.max_retries',
    ]);
  });
  await rejectsWith(config.patchSection('providers', {}), (err) => assert.match(err.message, /Unknown section/));
  await rejectsWith(config.patchSection('system', { mount_path: '/m', port: 1 }), (err) =>
    assert.deepEqual(err.details, [{ field: 'system.port', message: 'Unknown field' }]),
  );
  await rejectsWith(config.patchSection('webdav', 'port=1'), (err) => assert.match(err.message, /Must be an object/));
  assert.equal(readFileSync(config.path, 'utf8'), before);
  assert.equal(config.get().health.max_retries, 2);
});

test('reload applies a valid file, keeps the old config on a bad one, and emits change events', async () => {
  using tmp = tempDir();
  const config = await open(tmp.dir);
  const seen: { paths: string[]; prevPort: number; nextPort: number }[] = [];
  config.on('change', (next, prev, paths) =>
    seen.push({ paths, prevPort: prev.webdav.port, nextPort: next.webdav.port }),
  );
  config.on('change', () => {
    throw new Error('a broken subscriber');
  });
  const file = readFileSync(config.path, 'utf8');
  writeFileSync(
    config.path,
    file.replace('port: 8080', 'port: 8181').replace('max_concurrent_jobs: 1', 'max_concurrent_jobs: 3'),
  );
  const ok = await config.reload();
  assert.deepEqual(ok.restart_required, ['webdav.port']);
  assert.deepEqual(seen, [{ paths: ['webdav.port', 'health.max_concurrent_jobs'], prevPort: 8080, nextPort: 8181 }]);

  writeFileSync(config.path, file.replace('port: 8080', 'port: -1').replace('max_retries: 2', 'max_retries: 99'));
  await rejectsWith(config.reload(), (err) => {
    assert.equal(err.code, 'VALIDATION_FAILED');
    assert.match(err.message, /running configuration was kept/);
    assert.deepEqual(
      (err.details as { field: string }[]).map((e) => e.field),
      ['webdav.port', 'health.max_retries'],
    );
  });
  assert.equal(config.get().webdav.port, 8181, 'old config kept');
  assert.equal(config.get().health.max_concurrent_jobs, 3);
  assert.equal(seen.length, 1, 'no event for a refused reload');
});

test('concurrent writes are serialised: none is lost, the file is never torn', async () => {
  using tmp = tempDir();
  const config = await open(tmp.dir);
  let reads = 0;
  let torn = 0;
  let writing = true;
  const reader = (async () => {
    while (writing && reads < 10_000) {
      const parsed = parseConfigText(readFileSync(config.path, 'utf8'));
      if (!parsed.ok) torn++;
      reads++;
      await new Promise((r) => setImmediate(r));
    }
  })();
  const writes = [];
  for (let i = 1; i <= 20; i++) {
    writes.push(config.patchSection('streaming', { max_cache_size_mb: 100 + i }));
    writes.push(config.patchSection('health', { check_interval_seconds: 100 + i }));
  }
  await Promise.all(writes);
  writing = false;
  await reader;
  assert.equal(config.get().streaming.max_cache_size_mb, 120);
  assert.equal(config.get().health.check_interval_seconds, 120);
  const onDisk = parse(readFileSync(config.path, 'utf8'));
  assert.equal(onDisk.streaming.max_cache_size_mb, 120);
  assert.equal(onDisk.health.check_interval_seconds, 120);
  assert.ok(reads > 0);
  assert.equal(torn, 0);
  assert.deepEqual(
    readdirSync(tmp.dir).filter((f) => f.endsWith('.tmp')),
    [],
    'no temp files left',
  );
});

test('an atomic write that cannot complete leaves the old file and no temp file', async () => {
  using tmp = tempDir();
  const target = join(tmp.dir, 'config.yaml');
  mkdirSync(target); // rename over a directory fails: the fault we inject
  writeFileSync(join(target, 'inside'), 'old');
  await assert.rejects(writeFileAtomic(target, 'new: 1\n'));
  assert.equal(readFileSync(join(target, 'inside'), 'utf8'), 'old');
  assert.deepEqual(readdirSync(tmp.dir), ['config.yaml']);
});

test('providers API helpers: add, update keeping the password, reorder, delete', async () => {
  using tmp = tempDir();
  const config = await open(tmp.dir);
  const a = await config.addProvider({ host: 'a.example.com', username: 'u', password: 'pa' });
  const b = await config.addProvider({ host: 'b.example.com', username: 'u', password: 'pb', tls: true, port: 563 });
  assert.equal(a.password_set, true);
  assert.ok(!('password' in a));
  assert.equal(a.port, 119);
  assert.notEqual(a.id, b.id);
  const updated = await config.updateProvider(a.id, { max_connections: 20, password: '' });
  assert.equal(updated.max_connections, 20);
  assert.equal(config.get().providers[0]?.password, 'pa');
  await rejectsWith(config.updateProvider(a.id, { port: 0 }), (err) =>
    assert.deepEqual(err.details, [{ field: 'port', message: 'Must be between 1 and 65535' }]),
  );
  await rejectsWith(config.updateProvider('nope', {}), (err) => assert.equal(err.status, 404));
  await rejectsWith(config.addProvider({ id: a.id, host: 'c' }), (err) => assert.equal(err.status, 409));
  await rejectsWith(config.reorderProviders([a.id]), (err) => assert.equal(err.status, 400));
  assert.deepEqual(
    (await config.reorderProviders([b.id, a.id])).map((p) => p.host),
    ['b.example.com', 'a.example.com'],
  );
  await config.deleteProvider(b.id);
  assert.deepEqual(
    config.listProviders().map((p) => p.id),
    [a.id],
  );
  assert.equal((await open(tmp.dir)).get().providers[0]?.password, 'pa');
});

test('validate answers without writing, for a full config or a section patch', async () => {
  using tmp = tempDir();
  const config = await open(tmp.dir);
  const before = readFileSync(config.path, 'utf8');
  assert.deepEqual(config.validate(config.redacted()), { valid: true, errors: [] });
  assert.deepEqual(config.validate({ section: 'streaming', config: { max_download_workers: 0 } }), {
    valid: false,
    errors: [{ field: 'streaming.max_download_workers', message: 'Must be between 1 and 50' }],
  });
  assert.equal(config.validate({ section: 'nope', config: {} }).valid, false);
  assert.equal(readFileSync(config.path, 'utf8'), before);
});

test('a patch carrying "__proto__" is refused as an unknown field', async () => {
  using tmp = tempDir();
  const config = await open(tmp.dir);
  await rejectsWith(config.patchSection('webdav', JSON.parse('{"__proto__": {"port": 1}}')), (err) =>
    assert.deepEqual(err.details, [{ field: 'webdav.__proto__', message: 'Unknown field' }]),
  );
});

test('a section patch replaces nested option maps whole, so a removed option disappears', async () => {
  using tmp = tempDir();
  const config = await open(tmp.dir);
  await config.patchSection('rclone', { mount_options: { 'vfs-cache-poll-interval': '1m', 'no-seek': true } });
  await config.patchSection('rclone', { mount_options: { 'no-seek': true } });
  assert.deepEqual(config.get().rclone.mount_options, { 'no-seek': true });
  assert.equal(config.get().rclone.transfers, 4, 'fields not named keep their value');
});
