import { isPlainObject } from './normalize.js';
import type { RedactedConfig, RedactedImport, RedactedProvider } from './config.wire.js';
import type { ImportConfig, ProviderConfig, SpoolConfig } from './schema.js';

export type { RedactedArrInstance, RedactedConfig, RedactedImport, RedactedProvider } from './config.wire.js';

/**
 * Write-only secrets. Answers carry `<name>_set` booleans instead (docs/console-contract.md §3); on input a secret that is omitted,
 * empty or the console's masked placeholder keeps the stored value, so a form can be saved back untouched.
 * To clear a secret, send it empty with `<name>_set: false`.
 */
export const MASKED_SECRET = '********';

/**
 * Every secret of the config file, by where it sits (`[]`: in each entry of a list): what `redact` hides and the
 * support bundle must never carry (appliance/diagnostics/support-bundle.test.ts sets each and finds none in a bundle).
 */
export const SECRET_KEYS = [
  'metadata.database_url',
  'webdav.password',
  'auth.oidc_client_secret',
  'import.archive_passwords',
  'providers[].password',
  'rclone.rc_pass',
  'sabnzbd.fallback_api_key',
  'arrs.radarr_instances[].api_key',
  'arrs.sonarr_instances[].api_key',
  'notifications.targets[].token',
  'media_servers.servers[].token',
] as const;

type Redact<T, K extends keyof T & string> = Omit<T, K> & { [P in `${K}_set`]: boolean };

function hide<T extends object, K extends keyof T & string>(obj: T, key: K): Redact<T, K> {
  const { [key]: secret, ...rest } = obj;
  return { ...rest, [`${key}_set`]: typeof secret === 'string' && secret !== '' } as Redact<T, K>;
}

export const redactProvider = (p: ProviderConfig): RedactedProvider => hide(p, 'password');

function redactImport(config: ImportConfig): RedactedImport {
  const { archive_passwords: list, ...rest } = structuredClone(config);
  return { ...rest, archive_passwords_set: list.length > 0, archive_passwords_count: list.length };
}

export function redact(config: SpoolConfig): RedactedConfig {
  return {
    ...structuredClone(config),
    metadata: redactMetadata(config.metadata),
    webdav: hide(config.webdav, 'password'),
    auth: hide(structuredClone(config.auth), 'oidc_client_secret'),
    import: redactImport(config.import),
    providers: config.providers.map(redactProvider),
    rclone: hide({ ...config.rclone, rc_options: { ...config.rclone.rc_options } }, 'rc_pass'),
    sabnzbd: hide(structuredClone(config.sabnzbd), 'fallback_api_key'),
    arrs: {
      enabled: config.arrs.enabled,
      radarr_instances: config.arrs.radarr_instances.map((a) => hide(a, 'api_key')),
      sonarr_instances: config.arrs.sonarr_instances.map((a) => hide(a, 'api_key')),
    },
    notifications: { ...config.notifications, targets: config.notifications.targets.map((t) => hide(t, 'token')) },
    media_servers: {
      ...structuredClone(config.media_servers),
      servers: structuredClone(config.media_servers.servers).map((m) => hide(m, 'token')),
    },
  } as RedactedConfig;
}

/** metadata.database_url shows where the store is but never its password (docs/configuration.md, Secrets). */
function redactMetadata(metadata: SpoolConfig['metadata']): SpoolConfig['metadata'] {
  const url = metadata.database_url;
  return url === undefined ? { ...metadata } : { ...metadata, database_url: maskDatabaseUrl(url) };
}

/** The URL with its password replaced by the masked placeholder (an unparsable one is masked whole). */
export function maskDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = MASKED_SECRET;
    return u.toString();
  } catch {
    return url === '' ? '' : MASKED_SECRET;
  }
}

type Obj = Record<string, unknown>;

/**
 * Resolves one secret field of an input object in place: keeps `current` unless a real new value was given,
 * and drops the read-only `<key>_set` flag so the strict schema does not see it.
 */
export function keepSecret(input: Obj, key: string, current: string | undefined): void {
  const flag = `${key}_set`;
  const value = input[key];
  const clear = input[flag] === false && value === '';
  delete input[flag];
  if (clear) return;
  if (value === undefined || value === '' || value === MASKED_SECRET) {
    if (current === undefined) delete input[key];
    else input[key] = current;
  }
}

/**
 * `keepSecret` for a list of secrets (import.archive_passwords): omitted, empty, or only masked placeholders keeps
 * the stored list; a list with real entries replaces it; `[]` with `<key>_set: false` clears it. The read-only
 * `<key>_set` and `<key>_count` are dropped.
 */
export function keepSecretList(input: Obj, key: string, current: readonly string[]): void {
  const value = input[key];
  const clear = input[`${key}_set`] === false && Array.isArray(value) && value.length === 0;
  delete input[`${key}_set`];
  delete input[`${key}_count`];
  if (clear) return;
  const masked = Array.isArray(value) && value.every((v) => v === MASKED_SECRET);
  if (value === undefined || value === MASKED_SECRET || masked) input[key] = [...current];
}

/**
 * Applies `keepSecret` at every secret location of a (full or partial) config input, against the running config.
 * List entries are matched to their stored counterpart: providers by id, arr instances by name, then by position.
 * Returns a new object; the input is not modified.
 */
export function keepSecrets(input: unknown, current: SpoolConfig): unknown {
  if (!isPlainObject(input)) return input;
  const out = structuredClone(input);
  for (const [section, key, value] of [
    ['webdav', 'password', current.webdav.password],
    ['auth', 'oidc_client_secret', current.auth.oidc_client_secret],
    ['rclone', 'rc_pass', current.rclone.rc_pass],
    ['sabnzbd', 'fallback_api_key', current.sabnzbd.fallback_api_key],
  ] as const) {
    // A section left out of the input entirely keeps its secret too (PUT fills the rest from defaults).
    if (out[section] === undefined) out[section] = {};
    const obj = out[section];
    if (isPlainObject(obj)) keepSecret(obj, key, value);
  }
  // database_url sent back as answered (its password masked) keeps the stored URL.
  const metadata = out.metadata;
  const storedUrl = current.metadata.database_url;
  if (isPlainObject(metadata) && storedUrl && metadata.database_url === maskDatabaseUrl(storedUrl))
    metadata.database_url = storedUrl;
  if (out.import === undefined) out.import = {};
  if (isPlainObject(out.import)) keepSecretList(out.import, 'archive_passwords', current.import.archive_passwords);
  if (Array.isArray(out.providers)) {
    for (const p of out.providers) {
      if (!isPlainObject(p)) continue;
      const stored = current.providers.find((c) => c.id === p.id);
      keepSecret(p, 'password', stored?.password);
    }
  }
  if (isPlainObject(out.arrs)) {
    for (const key of ['radarr_instances', 'sonarr_instances'] as const) {
      const list = out.arrs[key];
      if (!Array.isArray(list)) continue;
      const storedList = current.arrs[key];
      list.forEach((a, i) => {
        if (!isPlainObject(a)) return;
        const stored = storedList.find((s) => s.name === a.name) ?? storedList[i];
        keepSecret(a, 'api_key', stored?.api_key);
      });
    }
  }
  keepTargetTokens(out, current);
  keepMediaServerTokens(out, current);
  return out;
}

/** media_servers.servers[].token: matched to the stored server by name, then by position (like arr instances). */
function keepMediaServerTokens(out: Obj, current: SpoolConfig): void {
  const list = isPlainObject(out.media_servers) ? out.media_servers.servers : undefined;
  if (!Array.isArray(list)) return;
  const stored = current.media_servers.servers;
  list.forEach((m, i) => {
    if (!isPlainObject(m)) return;
    keepSecret(m, 'token', (stored.find((s) => s.name === m.name) ?? stored[i])?.token);
  });
}

/** notifications.targets[].token: matched to the stored target by name, then by position (like arr instances). */
function keepTargetTokens(out: Obj, current: SpoolConfig): void {
  const list = isPlainObject(out.notifications) ? out.notifications.targets : undefined;
  if (!Array.isArray(list)) return;
  const stored = current.notifications.targets;
  list.forEach((t, i) => {
    if (!isPlainObject(t)) return;
    keepSecret(t, 'token', (stored.find((s) => s.name === t.name) ?? stored[i])?.token);
  });
}
