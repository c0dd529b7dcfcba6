import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultsFor } from './data-dir-defaults.js';
import { DEFAULTS } from './defaults.js';
import { NUMERIC_FALLBACKS, numericFallback } from './fallbacks.js';
import { withDefaults } from './normalize.js';
import { validateConfig } from './validate.js';

const defaults = defaultsFor('/srv/spool');

/** Validates a hand-written (partial) config the way the service does: defaults first, then the schema. */
function check(input: unknown) {
  return validateConfig(withDefaults(input, defaults).candidate);
}

function errorsOf(input: unknown): { field: string; message: string }[] {
  const result = check(input);
  assert.equal(result.ok, false, 'expected validation to fail');
  return result.ok ? [] : result.errors;
}

test('the defaults are a valid config and carry the numbers of docs/console-contract.md §9', () => {
  assert.equal(validateConfig(DEFAULTS).ok, true);
  const result = check({});
  assert.ok(result.ok);
  const c = result.config;
  assert.equal(c.webdav.port, 8080);
  assert.equal(c.mount_path, '/mnt/spool');
  assert.equal(c.metadata.root_path, '/srv/spool/metadata');
  assert.deepEqual(c.import.scan_roots, ['/srv/spool/nzb']);
  assert.equal(c.sabnzbd.complete_dir, '/complete');
  assert.equal(c.import.max_processor_workers, 2);
  assert.equal(c.import.queue_processing_interval_seconds, 5);
  assert.equal(c.auth.registration_enabled, false);
  assert.equal(c.streaming.zero_fill_enabled, false);
  assert.deepEqual(
    [c.rclone.rc_port, c.rclone.timeout, c.rclone.log_level, c.rclone.uid, c.rclone.gid, c.rclone.umask],
    [5572, '10m', 'INFO', 1000, 1000, '002'],
  );
  assert.deepEqual(
    [c.rclone.buffer_size, c.rclone.attr_timeout, c.rclone.transfers, c.rclone.vfs_cache_mode],
    ['32M', '1s', 4, 'full'],
  );
  assert.deepEqual(
    [c.rclone.vfs_cache_max_size, c.rclone.vfs_cache_max_age, c.rclone.read_chunk_size, c.rclone.read_chunk_size_limit],
    ['50G', '504h', '32M', '2G'],
  );
  assert.deepEqual(
    [
      c.rclone.vfs_read_ahead,
      c.rclone.dir_cache_time,
      c.rclone.vfs_cache_min_free_space,
      c.rclone.vfs_disk_space_total,
    ],
    ['128M', '10m', '1G', '1G'],
  );
  assert.equal(c.rclone.vfs_read_chunk_streams, 4);
  const on = ['allow_other', 'allow_non_empty', 'syslog', 'async_read'] as const;
  const off = [
    'read_only',
    'no_mod_time',
    'no_checksum',
    'vfs_fast_fingerprint',
    'use_mmap',
    'rc_enabled',
    'mount_enabled',
  ] as const;
  for (const k of on) assert.equal(c.rclone[k], true, k);
  for (const k of off) assert.equal(c.rclone[k], false, k);
  assert.ok(Object.isFrozen(c) && Object.isFrozen(c.rclone), 'validated config is frozen');
});

test('a provider written with only a host gets the contract defaults and an id', () => {
  const result = check({ providers: [{ host: 'news.example.com' }] });
  assert.ok(result.ok);
  const p = result.config.providers[0]!;
  assert.equal(p.port, 119);
  assert.equal(p.max_connections, 10);
  assert.deepEqual([p.tls, p.insecure_tls, p.enabled, p.is_backup_provider], [false, false, true, false]);
  assert.match(p.id, /^[0-9a-f-]{36}$/);
});

test('every bad field is reported at once, each by its path', () => {
  const errors = errorsOf({
    webdav: { port: 0, colour: 'blue' },
    health: { max_retries: 6, check_interval_seconds: '60' },
    streaming: { max_download_workers: 51 },
    providers: [{ host: ' ', max_connections: 0 }],
    rclone: { transfers: 33, vfs_cache_mode: 'huge', buffer_size: 'lots', timeout: '10 minutes' },
    surprise: true,
  });
  const fields = errors.map((e) => e.field).sort();
  assert.deepEqual(fields, [
    'health.check_interval_seconds',
    'health.max_retries',
    'providers.0.host',
    'providers.0.max_connections',
    'rclone.buffer_size',
    'rclone.timeout',
    'rclone.transfers',
    'rclone.vfs_cache_mode',
    'streaming.max_download_workers',
    'surprise',
    'webdav.colour',
    'webdav.port',
  ]);
  const byField = Object.fromEntries(errors.map((e) => [e.field, e.message]));
  assert.equal(byField['webdav.port'], 'Must be between 1 and 65535');
  assert.equal(byField['webdav.colour'], 'Unknown field');
  assert.equal(byField['health.max_retries'], 'Must be between 0 and 5');
  assert.equal(byField['providers.0.host'], 'Host is required');
  assert.equal(byField['health.check_interval_seconds'], 'Must be a number');
});

/** [section, field, lowest allowed, highest allowed] as docs/console-contract.md §5 lists them. */
const RANGES: [string, string, number, number][] = [
  ['health', 'max_concurrent_jobs', 1, 10],
  ['health', 'max_retries', 0, 5],
  ['health', 'check_interval_seconds', 5, 86400],
  ['streaming', 'max_cache_size_mb', 1, 1024],
  ['streaming', 'max_download_workers', 1, 50],
  ['import', 'max_processor_workers', 1, 20],
  ['import', 'queue_processing_interval_seconds', 1, 300],
  ['rclone', 'transfers', 1, 32],
  ['rclone', 'rc_port', 1, 65535],
  ['webdav', 'port', 1, 65535],
];

test('docs/console-contract.md §5 ranges: both ends accepted, one past either end refused with the range named', () => {
  for (const [section, field, min, max] of RANGES) {
    for (const ok of [min, max])
      assert.equal(check({ [section]: { [field]: ok } }).ok, true, `${section}.${field}=${ok}`);
    for (const bad of [min - 1, max + 1]) {
      assert.deepEqual(errorsOf({ [section]: { [field]: bad } }), [
        { field: `${section}.${field}`, message: `Must be between ${min} and ${max}` },
      ]);
    }
    assert.equal(errorsOf({ [section]: { [field]: min + 0.5 } })[0]?.message, 'Must be a whole number');
  }
  assert.deepEqual(errorsOf({ providers: [{ host: 'h', max_connections: 51 }] }), [
    { field: 'providers.0.max_connections', message: 'Must be between 1 and 50' },
  ]);
});

test('metadata root_path must not be blank', () => {
  assert.deepEqual(errorsOf({ metadata: { root_path: '   ' } }), [
    { field: 'metadata.root_path', message: 'Metadata root path is required' },
  ]);
});

test('metadata database_url: unset, empty or a postgres URL; anything else is refused with the reason', () => {
  assert.equal(check({}).ok, true);
  for (const ok of ['', 'postgres://spool:pw@db:5432/spool', 'postgresql://db/spool?sslmode=require'])
    assert.equal(check({ metadata: { database_url: ok } }).ok, true, ok);
  const message = 'Must be a postgres:// or postgresql:// URL, like postgres://spool:secret@db:5432/spool';
  for (const bad of ['mysql://db/spool', 'db:5432', 'postgres:///spool', 'http://db/spool'])
    assert.deepEqual(errorsOf({ metadata: { database_url: bad } }), [{ field: 'metadata.database_url', message }], bad);
});

test('SABnzbd rules apply only when enabled, with the contract texts', () => {
  const bad = {
    complete_dir: 'complete',
    categories: [{ name: 'tv' }, { name: 'tv' }, { name: 'movies' }, { name: 'movies' }, { name: '' }],
  };
  assert.equal(check({ sabnzbd: { ...bad, enabled: false } }).ok, true);
  assert.deepEqual(errorsOf({ sabnzbd: { ...bad, enabled: true } }), [
    { field: 'sabnzbd.complete_dir', message: 'Complete directory must be an absolute path (starting with /)' },
    { field: 'sabnzbd.categories', message: 'Category names cannot be empty' },
    { field: 'sabnzbd.categories', message: 'Duplicate category names found: tv, movies' },
  ]);
  assert.deepEqual(errorsOf({ sabnzbd: { enabled: true, complete_dir: '' } }), [
    { field: 'sabnzbd.complete_dir', message: 'Complete directory is required when SABnzbd API is enabled' },
  ]);
  const cat = check({ sabnzbd: { categories: [{ name: 'x' }] } });
  assert.ok(cat.ok);
  assert.deepEqual(cat.config.sabnzbd.categories, [{ name: 'x', order: 1, priority: 0, dir: '' }]);
  assert.equal(
    errorsOf({ sabnzbd: { categories: [{ name: 'x', priority: 2 }] } })[0]?.field,
    'sabnzbd.categories.0.priority',
  );
});

test('arr rules apply only when enabled, with the contract texts', () => {
  const arrs = {
    radarr_instances: [{ name: 'Main', url: 'not a url', api_key: 'k' }, {}],
    sonarr_instances: [{ name: 'Main', url: 'http://sonarr:8989', api_key: '' }],
  };
  assert.equal(check({ arrs: { ...arrs, enabled: false } }).ok, true);
  assert.deepEqual(errorsOf({ arrs: { ...arrs, enabled: true } }), [
    { field: 'arrs.radarr_instances.0.url', message: 'Radarr instance #1: Invalid URL format' },
    { field: 'arrs.radarr_instances.1.name', message: 'Radarr instance #2: Name is required' },
    { field: 'arrs.radarr_instances.1.url', message: 'Radarr instance #2: URL is required' },
    { field: 'arrs.radarr_instances.1.api_key', message: 'Radarr instance #2: API key is required' },
    { field: 'arrs.sonarr_instances.0.api_key', message: 'Sonarr instance #1: API key is required' },
    { field: 'arrs', message: 'Instance name "Main" is used multiple times' },
  ]);
  const ok = check({ arrs: { enabled: true, sonarr_instances: [{ name: 'S', url: 'http://s:8989', api_key: 'k' }] } });
  assert.ok(ok.ok);
  assert.deepEqual(ok.config.arrs.sonarr_instances[0], {
    name: 'S',
    url: 'http://s:8989',
    api_key: 'k',
    type: 'sonarr',
    enabled: true,
    root_folder: '',
  });
  assert.equal(
    errorsOf({ arrs: { radarr_instances: [{ type: 'sonarr' }] } })[0]?.message,
    'Instance type must be radarr in radarr_instances',
  );
});

test('paths that must be absolute say so', () => {
  assert.deepEqual(errorsOf({ mount_path: 'mnt/spool' }), [
    { field: 'mount_path', message: 'Mount path must be an absolute path (starting with /)' },
  ]);
  assert.deepEqual(errorsOf({ import: { import_strategy: 'symlink', import_dir: '' } }), [
    { field: 'import.import_dir', message: 'Import directory is required for the symlink strategy' },
  ]);
  assert.deepEqual(errorsOf({ import: { import_dir: 'downloads', strm_base_url: 'spool:8080' } }), [
    { field: 'import.strm_base_url', message: 'Invalid URL format' },
    { field: 'import.import_dir', message: 'Must be an absolute path (starting with /)' },
  ]);
  const defaultsOnly = check({});
  assert.ok(defaultsOnly.ok);
  assert.equal(defaultsOnly.config.import.import_dir, '/srv/spool/downloads', 'symlinks by default');
  assert.equal(check({ mount_path: '' }).ok, true, 'an empty mount path means no mount');
});

test('input that is not a mapping is refused, a null section takes its defaults', () => {
  assert.deepEqual(
    errorsOf([1, 2]).map((e) => e.field),
    [''],
  );
  assert.deepEqual(
    errorsOf({ webdav: 'yes' }).map((e) => e.field),
    ['webdav'],
  );
  const result = check({ webdav: null });
  assert.ok(result.ok);
  assert.equal(result.config.webdav.port, 8080);
});

test('numeric fallbacks of docs/console-contract.md §5 apply to unparseable input only', () => {
  assert.equal(numericFallback('rclone.transfers', 'abc'), 4);
  assert.equal(numericFallback('rclone.transfers', ''), 4);
  assert.equal(numericFallback('rclone.transfers', '0'), 4);
  assert.equal(numericFallback('rclone.transfers', '12'), 12);
  assert.equal(numericFallback('rclone.transfers', '40'), 40, 'out of range is kept for the server to name');
  assert.equal(numericFallback('rclone.rc_port', 'x'), 5572);
  assert.equal(numericFallback('streaming.max_cache_size_mb', '1.5'), 1);
  assert.equal(numericFallback('streaming.max_download_workers', ''), 1);
  assert.equal(numericFallback('import.max_processor_workers', 'x'), 1);
  assert.equal(numericFallback('import.queue_processing_interval_seconds', 'x'), 5);
  assert.equal(numericFallback('webdav.port', 'x'), 0);
  assert.equal(numericFallback('sabnzbd.categories.order', 'x'), 0);
  assert.equal(numericFallback('sabnzbd.categories.order', '-3'), -3);
});

test("the number ranges the console checks are the schema's: each bound passes, one past it is refused", () => {
  for (const [field, { min, max }] of Object.entries(NUMERIC_FALLBACKS)) {
    const [section, key, ...rest] = field.split('.');
    if (rest.length) continue; // list items (category order) have no single place to set
    const at = (value: number) => ({ [section!]: { [key!]: value } });
    assert.ok(check(at(min)).ok, `${field} = ${min}`);
    assert.ok(check(at(max)).ok, `${field} = ${max}`);
    for (const outside of [min - 1, max + 1]) {
      assert.deepEqual(
        errorsOf(at(outside)).map((e) => e.field),
        [field],
        `${field} = ${outside}`,
      );
    }
  }
});

test('a "__proto__" key from JSON is reported as unknown, never swaps a prototype', () => {
  const input = JSON.parse('{"__proto__": {"x": 1}, "webdav": {"__proto__": {"port": 1}, "port": 8081}}');
  assert.deepEqual(
    errorsOf(input)
      .map((e) => e.field)
      .sort(),
    ['__proto__', 'webdav.__proto__'],
  );
  assert.equal(({} as Record<string, unknown>).x, undefined);
});

test('webdav.password is empty (no separate account) or at least 8 characters, like a user password', () => {
  assert.deepEqual(errorsOf({ webdav: { password: 'short' } }), [
    { field: 'webdav.password', message: 'Password must be at least 8 characters long' },
  ]);
  assert.ok(check({ webdav: { password: '' } }).ok);
  assert.ok(check({ webdav: { password: '12345678' } }).ok);
});

test('auth.trusted_origins holds origins only: scheme, host and optional port', () => {
  assert.ok(check({ auth: { trusted_origins: ['https://spool.example.com', 'http://10.0.0.5:8080/'] } }).ok);
  assert.deepEqual(
    errorsOf({ auth: { trusted_origins: ['https://ok.example', 'spool.example.com', 'https://x.example/path'] } }).map(
      (e) => e.field,
    ),
    ['auth.trusted_origins.1', 'auth.trusted_origins.2'],
  );
});

test('no value may carry CR, LF or NUL: they would split an NNTP command or an HTTP header', () => {
  const errors = errorsOf({
    providers: [{ id: 'p', host: 'news.example\r\nQUIT', username: 'user\nAUTHINFO', password: 'pa\u0000ss' }],
    rclone: { rc_user: 'u\r' },
    sabnzbd: { fallback_api_key: 'k\n' },
    arrs: { radarr_instances: [{ name: 'r', type: 'radarr', url: 'http://r', api_key: 'x\r\ny' }] },
  });
  const message = 'Must not contain line breaks or NUL characters';
  assert.deepEqual(
    errors.filter((e) => e.message === message).map((e) => e.field),
    [
      'providers.0.host',
      'providers.0.username',
      'providers.0.password',
      'rclone.rc_user',
      'sabnzbd.fallback_api_key',
      'arrs.radarr_instances.0.api_key',
    ],
  );
});

test('auth.trusted_proxies holds IP addresses or CIDR ranges', () => {
  assert.ok(check({ auth: { trusted_proxies: ['127.0.0.1', '172.16.0.0/12', 'fd00::/8'] } }).ok);
  assert.deepEqual(errorsOf({ auth: { trusted_proxies: ['10.0.0.1', 'proxy.lan', '10.0.0.0/40'] } }), [
    { field: 'auth.trusted_proxies.1', message: 'Must be an IP address or a CIDR range like 172.16.0.0/12' },
    { field: 'auth.trusted_proxies.2', message: 'Must be an IP address or a CIDR range like 172.16.0.0/12' },
  ]);
});

test('auth.trusted_proxies refuses every address; forward-auth header names are header names', () => {
  const every = 'Must not trust every address (0.0.0.0/0, ::/0): list the reverse proxy itself';
  assert.deepEqual(errorsOf({ auth: { trusted_proxies: ['0.0.0.0/0', '::/0', '10.0.0.0/8'] } }), [
    { field: 'auth.trusted_proxies.0', message: every },
    { field: 'auth.trusted_proxies.1', message: every },
  ]);
  assert.ok(check({ auth: { forward_user_header: 'Remote-User', forward_groups_header: 'X-Forwarded-Groups' } }).ok);
  assert.deepEqual(errorsOf({ auth: { forward_user_header: 'Remote User:' } }), [
    { field: 'auth.forward_user_header', message: 'Must be a header name like Remote-User (letters, digits, -)' },
  ]);
});
