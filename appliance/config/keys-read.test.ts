/**
 * "A config setting that does nothing is a defect": every key of the schema must be read by the code it names.
 * The check is textual: a key counts as read when a source file outside appliance/config/ (tests excluded) names
 * its last segment as a property (`.max_retries`, `{ max_retries }`, `['max_retries']`) and also names its
 * section (`.health`, `'health'`), or, for list entries, the list. What does not count: comments, the arguments of
 * a log call (a key only logged does nothing), and a bare string (`'max_retries'` in a field-error path or a
 * message: a key only validated or named does nothing). Keys consumed generically, without their name in the
 * code, are listed in GENERIC with the reason. A key that fails here must be implemented or removed from
 * schema.ts, defaults.ts and docs/configuration.md.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ZodType } from 'zod';
import { configSchema } from './schema.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Keys read without their name appearing next to their section, each with why. */
const GENERIC: Record<string, string> = {
  'providers.*.max_connections':
    "each provider's entry becomes a ProviderState whose `config.max_connections` the nntp files read (request-placement.ts, provider-connections.ts, warm-pool.ts, pool.ts) without naming the providers list",
  ...Object.fromEntries(
    ['retention_days', 'retention_policy', 'backbone', 'block_account', 'required'].map((k) => [
      `providers.*.${k}`,
      "each provider's entry becomes a ProviderState whose `config." + k + '` nntp/request-routing.ts reads',
    ]),
  ),
  ...handedOver(
    'providers',
    ['*.quota_period', '*.quota_bytes', '*.quota_reset_day', '*.quota_used_bytes', '*.expires_on'],
    'providers/quota-meter.ts (app/quota.ts)',
  ),
  ...Object.fromEntries(
    ['candidate', 'fit_stats_per_hour', 'price_per_month', 'price_per_block', 'block_size_gb'].map((k) => [
      `providers.*.${k}`,
      'app/fit.ts hands config.get().providers to providers/fit.service.ts, which reads `' + k + '` of each entry',
    ]),
  ),
  ...handedOver('auth', ['trusted_origins', 'trusted_proxies'], 'auth/network-policy.ts'),
  ...handedOver('import', ['watch_dir', 'watch_interval_seconds'], 'importer/watch-dir.ts'),
  ...handedOver('log', ['file', 'level', 'max_size', 'max_age', 'max_backups', 'compress'], 'logging/log-file.ts'),
  ...handedOver(
    'notifications',
    ['min_interval_seconds', 'queue_size', 'targets.*.enabled', 'targets.*.events'],
    'notify/notifier.ts',
  ),
  ...handedOver(
    'media_servers',
    [
      'servers.*.name',
      'servers.*.kind',
      'servers.*.url',
      'servers.*.token',
      'servers.*.enabled',
      'servers.*.refresh_imports',
      'servers.*.path_mappings.*.from',
      'servers.*.path_mappings.*.to',
    ],
    'mediaservers/mediaservers.service.ts and its clients',
  ),
};

/** Keys of a section that app/ hands over whole (`config.get().<section>`) to the file that reads them. */
function handedOver(section: string, keys: string[], reader: string): Record<string, string> {
  const why = `app/ hands config.get().${section} to ${reader}, which reads it by name without naming the section`;
  return Object.fromEntries(keys.map((k) => [`${section}.${k}`, why]));
}

interface Def {
  type: string;
  shape?: Record<string, ZodType>;
  element?: ZodType;
}
const defOf = (schema: ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Every leaf key as a dotted path; entries of lists of objects appear as `list.*.key`. */
export function schemaKeys(schema: ZodType = configSchema, path: string[] = []): string[] {
  const def = defOf(schema);
  if (def.type === 'object' && def.shape)
    return Object.entries(def.shape).flatMap(([k, v]) => schemaKeys(v, [...path, k]));
  if (def.type === 'array' && def.element && defOf(def.element).type === 'object')
    return schemaKeys(def.element, [...path, '*']);
  return [path.join('.')];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' || name === 'native' ? [] : sourceFiles(full);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [full] : [];
  });
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A property read: `.name`, `?.name`, `['name']`, or destructured `{ name }` / `{ name: alias }`. */
const namesProperty = (text: string, name: string) =>
  new RegExp(`(\\??\\.|\\[['"])${escape(name)}\\b|[{,]\\s*${escape(name)}\\s*[,}:]`).test(text);

const LOG_CALL = /\b(?:log|logger|console)\s*\.\s*(?:trace|debug|info|warn|error|fatal|log)\s*\(/g;

/**
 * The source without comments, without the arguments of log calls (parentheses balanced, strings skipped), and with
 * quoted strings emptied unless they are a property access.
 */
export function readableCode(text: string): string {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  let out = '';
  let from = 0;
  for (const m of code.matchAll(LOG_CALL)) {
    if (m.index < from) continue;
    out += code.slice(from, m.index);
    let depth = 0;
    let i = m.index + m[0].length - 1;
    for (let quote = ''; i < code.length; i++) {
      const c = code[i];
      if (quote) {
        if (c === '\\') i++;
        else if (c === quote) quote = '';
      } else if (c === "'" || c === '"' || c === '`') quote = c;
      else if (c === '(') depth++;
      else if (c === ')' && --depth === 0) break;
    }
    from = i + 1;
  }
  // Quoted strings say nothing (a field path 'import.max_retries' in a message), except as a property: ['name'].
  return (out + code.slice(from)).replace(/(^|[^[\\])('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")/g, "$1''");
}
/** A section or list is named as a property or string (`.import`, `'import'`), never as the keyword. */
const namesSection = (text: string, name: string) => new RegExp(`[.'"\`]${escape(name)}\\b`).test(text);

test('every config key is read outside appliance/config/ (or listed as read generically, with a reason)', () => {
  const files = [...sourceFiles(join(ROOT, 'appliance')), ...sourceFiles(join(ROOT, 'workers'))]
    .filter((f) => !relative(ROOT, f).startsWith('appliance/config/'))
    .map((f) => readableCode(readFileSync(f, 'utf8')));
  const unread = schemaKeys().filter((key) => {
    if (key in GENERIC) return false;
    const parts = key.split('.').filter((p) => p !== '*');
    const leaf = parts[parts.length - 1] as string;
    const owners = parts.slice(0, -1);
    return !files.some((text) => namesProperty(text, leaf) && owners.every((o) => namesSection(text, o)));
  });
  assert.deepEqual(unread, [], `config keys nothing reads (implement or remove them):\n  ${unread.join('\n  ')}`);
});

test('the audit sees the schema: known keys are found, a made-up one would not be', () => {
  const keys = schemaKeys();
  assert.ok(keys.includes('webdav.port') && keys.includes('providers.*.host') && keys.includes('mount_path'));
  assert.ok(keys.length > 100, `${keys.length} keys`);
  for (const key of Object.keys(GENERIC)) assert.ok(keys.includes(key), `GENERIC lists ${key}, not in the schema`);
  assert.equal(namesProperty('const x = c.zero_fill_enabled;', 'zero_fill_enabled'), true);
  assert.equal(namesProperty('const { zero_fill_enabled } = c;', 'zero_fill_enabled'), true);
  assert.equal(namesProperty(readableCode('// zero_fill_enabled in a comment'), 'zero_fill_enabled'), false);
  const logged = "log.info('settings', { limit: c.zero_fill_enabled, n: f(a, (b)) }); next();";
  assert.equal(namesProperty(readableCode(logged), 'zero_fill_enabled'), false, 'only logged is not read');
  assert.equal(readableCode(logged).trim(), '; next();');
  const validated = "errors.push(fieldError('streaming.zero_fill_enabled', 'must be a boolean'));";
  assert.equal(namesProperty(readableCode(validated), 'zero_fill_enabled'), false, 'only named in a path: not read');
  assert.equal(namesProperty(readableCode("s['zero_fill_enabled']"), 'zero_fill_enabled'), true);
  assert.equal(namesSection("import { x } from './y.js';", 'import'), false);
  assert.equal(namesSection('config.get().import.max_retries', 'import'), true);
});
