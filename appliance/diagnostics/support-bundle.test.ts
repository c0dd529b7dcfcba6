import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { parse } from 'yaml';
import { readTar } from '../backup/tar.js';
import { defaultsFor } from '../config/data-dir-defaults.js';
import { withDefaults } from '../config/normalize.js';
import { SECRET_KEYS } from '../config/secrets.js';
import { validateConfig } from '../config/validate.js';
import type { SpoolConfig } from '../config/index.js';
import { SUPPORT_BUNDLE_FILES } from './diagnostics.wire.js';
import { secretValues } from './secret-values.js';
import { buildSupportBundle } from './support-bundle.js';

/** The known secret put at `key` (a database URL carries it as its password). */
const knownSecret = (key: string) => `known-secret-${key.replace(/\W+/g, '-')}`;

/** A raw config with one entry in every list that holds a secret, and a known string at every key of SECRET_KEYS. */
function configWithEverySecret(): SpoolConfig {
  const raw: Record<string, unknown> = {
    providers: [{ id: 'p1', host: 'news.example.com', username: 'u' }],
    arrs: {
      radarr_instances: [{ name: 'R', type: 'radarr', url: 'http://r:7878' }],
      sonarr_instances: [{ name: 'S', type: 'sonarr', url: 'http://s:8989' }],
    },
    notifications: { targets: [{ name: 'hook', type: 'webhook', url: 'http://hook.example/x' }] },
    media_servers: {
      servers: [
        {
          name: 'jf',
          kind: 'jellyfin',
          url: 'http://jf:8096',
          enabled: true,
          refresh_imports: false,
          path_mappings: [],
        },
      ],
    },
  };
  for (const key of SECRET_KEYS) assert.ok(setSecret(raw, key.split('.'), key), `${key} has a place to be set`);
  const result = validateConfig(withDefaults(raw, defaultsFor('/srv/spool')).candidate);
  assert.ok(result.ok, JSON.stringify(!result.ok && result.errors));
  return result.config;
}

function setSecret(node: Record<string, unknown>, path: string[], key: string): boolean {
  const [head, ...rest] = path as [string, ...string[]];
  const name = head.replace(/\[\]$/, '');
  if (rest.length === 0) {
    if (key === 'metadata.database_url') node[name] = `postgres://spool:${knownSecret(key)}@db.example:5432/spool`;
    else if (key === 'import.archive_passwords') node[name] = [knownSecret(key)];
    else node[name] = knownSecret(key);
    return true;
  }
  if (head.endsWith('[]')) {
    const list = node[name] as Array<Record<string, unknown>> | undefined;
    return !!list?.length && list.every((entry) => setSecret(entry, rest, key));
  }
  node[name] ??= {};
  return setSecret(node[name] as Record<string, unknown>, rest, key);
}

test('the bundle carries none of the secrets of SECRET_KEYS, not in the config, the log or the metrics', async () => {
  const config = configWithEverySecret();
  const secrets = SECRET_KEYS.map(knownSecret);
  assert.deepEqual(
    secrets.filter((s) => !secretValues(config).includes(s)),
    [],
    'every secret is found in the config',
  );
  const archive = await buildSupportBundle({
    config,
    diagnostics: { checked_at: '2026-11-28T00:00:00.000Z', findings: [], counts: { info: 0, warning: 0, error: 0 } },
    versions: { spool: '1.2.3', node: '20.19.0', rclone: null, platform: 'linux x64' },
    metrics: `# a metric that leaked a password\nspool_x{password="${secrets[3]}"} 1\n`,
    logLines: secrets.map((s) => JSON.stringify({ msg: 'connecting', detail: s })),
    now: Date.UTC(2026, 10, 28),
  });
  const entries = readTar(gunzipSync(archive));
  assert.deepEqual(entries.map((e) => e.name).sort(), [...SUPPORT_BUNDLE_FILES].sort());
  const whole = Buffer.concat(entries.map((e) => e.data)).toString('utf8');
  for (const s of secrets) assert.ok(!whole.includes(s), `${s} leaked`);
  const yaml = parse(entries.find((e) => e.name === 'config.yaml')!.data.toString('utf8')) as {
    providers: Array<{ password_set: boolean; host: string }>;
    metadata: { database_url: string };
  };
  assert.equal(yaml.providers[0]?.password_set, true, 'it says the secret is set');
  assert.equal(yaml.providers[0]?.host, 'news.example.com', 'the rest of the config is there');
  assert.match(yaml.metadata.database_url, /^postgres:\/\/spool:\*+@db\.example:5432\/spool$/);
  const log = entries.find((e) => e.name === 'log.txt')!.data.toString('utf8');
  assert.equal(log.trim().split('\n').length, secrets.length, 'every log line kept, its secret masked');
});
