import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultsFor } from './data-dir-defaults.js';
import { withDefaults } from './normalize.js';
import type { SpoolConfig } from './schema.js';
import { keepSecrets, MASKED_SECRET, redact } from './secrets.js';
import { validateConfig } from './validate.js';

function configWithSecrets(): SpoolConfig {
  const result = validateConfig(
    withDefaults(
      {
        webdav: { password: 'dav-secret' },
        providers: [{ id: 'p1', host: 'news.example.com', username: 'u', password: 'nntp-secret' }],
        rclone: { rc_pass: 'rc-secret' },
        sabnzbd: { fallback_api_key: 'sab-secret' },
        arrs: { radarr_instances: [{ name: 'R', url: 'http://r:7878', api_key: 'arr-secret' }] },
        import: { archive_passwords: ['arc-secret-1', 'arc-secret-2'] },
      },
      defaultsFor('/srv/spool'),
    ).candidate,
  );
  assert.ok(result.ok);
  return result.config;
}

test('redact removes every secret and says which are set', () => {
  const config = configWithSecrets();
  const r = redact(config);
  const text = JSON.stringify(r);
  for (const secret of ['dav-secret', 'nntp-secret', 'rc-secret', 'sab-secret', 'arr-secret', 'arc-secret']) {
    assert.ok(!text.includes(secret), `${secret} leaked`);
  }
  assert.equal(r.webdav.password_set, true);
  assert.equal(r.providers[0]?.password_set, true);
  assert.equal(r.rclone.rc_pass_set, true);
  assert.equal(r.sabnzbd.fallback_api_key_set, true);
  assert.equal(r.arrs.radarr_instances[0]?.api_key_set, true);
  assert.equal(r.import.archive_passwords_set, true);
  assert.equal(r.import.archive_passwords_count, 2);
  assert.ok(!('archive_passwords' in r.import));
  assert.ok(!('password' in r.webdav) && !('rc_pass' in r.rclone) && !('fallback_api_key' in r.sabnzbd));
  assert.equal(redact(defaultsFor('/x')).webdav.password_set, false);
  assert.equal(config.webdav.password, 'dav-secret', 'the running config is untouched');
});

test('a redacted config sent back unchanged keeps every secret', () => {
  const config = configWithSecrets();
  const back = keepSecrets(structuredClone(redact(config)), config);
  const result = validateConfig(withDefaults(back, defaultsFor('/srv/spool')).candidate);
  assert.ok(result.ok, JSON.stringify(!result.ok && result.errors));
  assert.deepEqual(result.config, config);
});

test('omitted, empty and masked secrets keep the stored value; a new value replaces it; _set false clears', () => {
  const config = configWithSecrets();
  const cases: [unknown, string][] = [
    [{}, 'dav-secret'],
    [{ password: '' }, 'dav-secret'],
    [{ password: MASKED_SECRET }, 'dav-secret'],
    [{ password: 'new' }, 'new'],
    [{ password: '', password_set: false }, ''],
  ];
  for (const [webdav, expected] of cases) {
    const out = keepSecrets({ webdav }, config) as { webdav: { password: string } };
    assert.equal(out.webdav.password, expected, JSON.stringify(webdav));
    assert.ok(!('password_set' in out.webdav));
  }
});

test('list secrets follow their entry: providers by id, arr instances by name then position', () => {
  const config = configWithSecrets();
  const out = keepSecrets(
    {
      providers: [
        { id: 'other', host: 'h' },
        { id: 'p1', host: 'h2', password: MASKED_SECRET },
      ],
      arrs: { radarr_instances: [{ name: 'Renamed', url: 'http://r', api_key: '' }] },
    },
    config,
  ) as { providers: { password?: string }[]; arrs: { radarr_instances: { api_key: string }[] } };
  assert.equal(out.providers[0]?.password, undefined, 'a new provider does not inherit a password');
  assert.equal(out.providers[1]?.password, 'nntp-secret');
  assert.equal(out.arrs.radarr_instances[0]?.api_key, 'arr-secret', 'renamed instance keeps its key by position');
});

test('import.archive_passwords: kept when omitted, empty or masked; replaced by a new list; cleared by _set false', () => {
  const config = configWithSecrets();
  const stored = ['arc-secret-1', 'arc-secret-2'];
  const cases: [Record<string, unknown>, string[]][] = [
    [{}, stored],
    [{ archive_passwords: [] }, stored],
    [{ archive_passwords: MASKED_SECRET }, stored],
    [{ archive_passwords: [MASKED_SECRET, MASKED_SECRET], archive_passwords_set: true }, stored],
    [{ archive_passwords: ['new'], archive_passwords_count: 2 }, ['new']],
    [{ archive_passwords: [], archive_passwords_set: false }, []],
  ];
  for (const [section, expected] of cases) {
    const out = keepSecrets({ import: section }, config) as { import: Record<string, unknown> };
    assert.deepEqual(out.import.archive_passwords, expected, JSON.stringify(section));
    assert.ok(!('archive_passwords_set' in out.import) && !('archive_passwords_count' in out.import));
  }
  // a PATCH of another section leaves the list alone
  const other = keepSecrets({ webdav: { port: 1 } }, config) as { import: { archive_passwords: string[] } };
  assert.deepEqual(other.import.archive_passwords, stored);
  const bad = validateConfig(
    withDefaults({ import: { archive_passwords: ['ok', ''] } }, defaultsFor('/srv/spool')).candidate,
  );
  assert.ok(!bad.ok);
  assert.deepEqual(bad.errors, [
    { field: 'import.archive_passwords.1', message: 'An archive password cannot be empty' },
  ]);
});

test('metadata.database_url answers with its password masked; sent back as answered it keeps the stored URL', () => {
  const plain = configWithSecrets();
  const config = {
    ...plain,
    metadata: { ...plain.metadata, database_url: 'postgres://spool:pg-secret@db:5432/spool' },
  };
  const r = redact(config);
  assert.equal(r.metadata.database_url, `postgres://spool:${MASKED_SECRET}@db:5432/spool`);
  assert.ok(!JSON.stringify(r).includes('pg-secret'));
  const back = keepSecrets(structuredClone(r), config) as SpoolConfig;
  assert.equal(back.metadata.database_url, 'postgres://spool:pg-secret@db:5432/spool');
  const moved = keepSecrets({ metadata: { database_url: 'postgres://spool:new@db2/spool' } }, config) as SpoolConfig;
  assert.equal(moved.metadata.database_url, 'postgres://spool:new@db2/spool');
  assert.equal(redact(plain).metadata.database_url, undefined);
});
