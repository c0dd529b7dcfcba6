import { parseProxyEntry } from './proxy-entry.js';
import { caPemError } from '../nntp/tls-ca.js';
import type { FieldError } from '../errors/field-errors.js';
import { EXPIRY_DATE } from './provider-quota.wire.js';

/**
 * Rules that look at more than one field (docs/console-contract.md §5). They run on the candidate even when zod found type errors
 * elsewhere, so they read every value defensively: a field of the wrong type is zod's to report, not ours.
 */
type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const blank = (v: unknown): boolean => typeof v !== 'string' || v.trim() === '';
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export function crossFieldErrors(candidate: unknown): FieldError[] {
  if (!isObj(candidate)) return [];
  return [
    ...lineBreakErrors(candidate, ''),
    ...absolutePathErrors(candidate),
    ...authErrors(candidate.auth),
    ...oidcErrors(candidate.auth),
    ...importErrors(candidate.import),
    ...providerErrors(candidate.providers),
    ...rcloneErrors(candidate.rclone),
    ...sabnzbdErrors(candidate.sabnzbd),
    ...arrsErrors(candidate.arrs),
    ...mediaServerErrors(candidate.media_servers),
  ];
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * No string anywhere in the config may hold CR, LF or NUL. Provider host, username and password end up in NNTP
 * command lines (`AUTHINFO USER ...`), API keys and rclone credentials in HTTP headers; a line break there would
 * let a value inject a command or a header of its own. No setting has a use for them, so the rule is global and
 * covers keys added later without anyone remembering it.
 */
function lineBreakErrors(value: unknown, path: string): FieldError[] {
  // A provider's CA is PEM, lines by nature; it never reaches a command line or a header (caPemError checks it).
  if (/^providers\.\d+\.ca$/.test(path)) return [];
  if (typeof value === 'string')
    // eslint-disable-next-line no-control-regex
    return /[\r\n\u0000]/.test(value)
      ? [{ field: path, message: 'Must not contain line breaks or NUL characters' }]
      : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => lineBreakErrors(v, `${path}.${i}`));
  if (isObj(value)) return Object.entries(value).flatMap(([k, v]) => lineBreakErrors(v, path ? `${path}.${k}` : k));
  return [];
}

function absolutePathErrors(c: Obj): FieldError[] {
  const mount = str(c.mount_path);
  if (mount && !mount.startsWith('/')) {
    return [{ field: 'mount_path', message: 'Mount path must be an absolute path (starting with /)' }];
  }
  return [];
}

/** A trusted origin is exactly what a browser puts in Origin: http(s)://host[:port], nothing after it. */
export function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value.replace(/\/$/, '').toLowerCase()
    );
  } catch {
    return false;
  }
}

/**
 * OpenID Connect needs its client id once an issuer is named; password sign-in may be turned off only with OIDC
 * set up (and the auth domain keeps it on until an administrator has signed in through OIDC: docs/security.md).
 */
function oidcErrors(section: unknown): FieldError[] {
  if (!isObj(section)) return [];
  const errors: FieldError[] = [];
  const issuer = typeof section.oidc_issuer === 'string' ? section.oidc_issuer : '';
  const clientId = typeof section.oidc_client_id === 'string' ? section.oidc_client_id : '';
  if (issuer !== '' && clientId.trim() === '')
    errors.push({ field: 'auth.oidc_client_id', message: 'Client ID is required when an issuer is set' });
  if (section.password_login === false && (issuer === '' || clientId.trim() === ''))
    errors.push({
      field: 'auth.password_login',
      message: 'Password sign-in can be turned off only once OpenID Connect is set up (issuer and client ID)',
    });
  return errors;
}

function authErrors(section: unknown): FieldError[] {
  if (!isObj(section)) return [];
  const errors: FieldError[] = [];
  list(section.trusted_proxies).forEach((p, i) => {
    if (typeof p === 'string' && !parseProxyEntry(p))
      errors.push({
        field: `auth.trusted_proxies.${i}`,
        message: 'Must be an IP address or a CIDR range like 172.16.0.0/12',
      });
    else if (typeof p === 'string' && parseProxyEntry(p)?.prefix === 0)
      errors.push({
        field: `auth.trusted_proxies.${i}`,
        message: 'Must not trust every address (0.0.0.0/0, ::/0): list the reverse proxy itself',
      });
  });
  for (const key of ['forward_user_header', 'forward_groups_header'] as const) {
    const value = section[key];
    if (typeof value === 'string' && value !== '' && !/^[A-Za-z0-9-]+$/.test(value))
      errors.push({ field: `auth.${key}`, message: 'Must be a header name like Remote-User (letters, digits, -)' });
  }
  list(section.trusted_origins).forEach((o, i) => {
    if (typeof o === 'string' && !isOrigin(o))
      errors.push({
        field: `auth.trusted_origins.${i}`,
        message: 'Must be an origin like https://spool.example.com (scheme, host and optional port, no path)',
      });
  });
  return errors;
}

function importErrors(section: unknown): FieldError[] {
  if (!isObj(section)) return [];
  const errors: FieldError[] = [];
  const strategy = str(section.import_strategy);
  if ((strategy === 'symlink' || strategy === 'strm') && blank(section.import_dir)) {
    errors.push({ field: 'import.import_dir', message: `Import directory is required for the ${strategy} strategy` });
  }
  const strm = str(section.strm_base_url);
  if (strm && !isHttpUrl(strm)) errors.push({ field: 'import.strm_base_url', message: 'Invalid URL format' });
  for (const key of ['import_dir', 'watch_dir']) {
    const dir = str(section[key]);
    if (dir && !dir.startsWith('/')) {
      errors.push({ field: `import.${key}`, message: 'Must be an absolute path (starting with /)' });
    }
  }
  return errors;
}

function providerErrors(providers: unknown): FieldError[] {
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  list(providers).forEach((p, i) => {
    const id = isObj(p) ? str(p.id) : undefined;
    if (id === undefined) return;
    if (seen.has(id)) errors.push({ field: `providers.${i}.id`, message: `Duplicate provider id "${id}"` });
    seen.add(id);
    const caError = isObj(p) && typeof p.ca === 'string' ? caPemError(p.ca) : null;
    if (caError) errors.push({ field: `providers.${i}.ca`, message: caError });
    if (isObj(p)) errors.push(...quotaErrors(p, `providers.${i}`));
    if (isObj(p)) errors.push(...priceErrors(p, `providers.${i}.`));
  });
  return errors;
}

/** A quota needs its size; a weekly one a weekday; an expiry a real date (docs/configuration.md "providers"). */
function quotaErrors(p: Obj, at: string): FieldError[] {
  const errors: FieldError[] = [];
  const period = str(p.quota_period);
  if (period && period !== 'none' && p.quota_bytes === null)
    errors.push({ field: `${at}.quota_bytes`, message: `A ${period} quota needs its size in bytes` });
  if (period === 'weekly' && typeof p.quota_reset_day === 'number' && p.quota_reset_day > 7)
    errors.push({ field: `${at}.quota_reset_day`, message: 'A weekly quota resets on day 1 (Monday) to 7 (Sunday)' });
  const expiry = str(p.expires_on);
  if (expiry && EXPIRY_DATE.test(expiry) && !isCalendarDate(expiry))
    errors.push({ field: `${at}.expires_on`, message: `${expiry} is not a date` });
  return errors;
}

/** `YYYY-MM-DD` that names a day that exists (not 2027-02-30). */
export function isCalendarDate(s: string): boolean {
  const d = new Date(`${s}T12:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** A price is per month or per block, not both; a block price needs its size (docs/providers.md "Cost view"). */
function priceErrors(p: Record<string, unknown>, at: string): FieldError[] {
  const set = (v: unknown) => typeof v === 'number';
  if (set(p.price_per_month) && set(p.price_per_block))
    return [{ field: `${at}price_per_block`, message: 'Give a price per month or per block, not both' }];
  if (set(p.price_per_block) && !set(p.block_size_gb))
    return [{ field: `${at}block_size_gb`, message: 'A block price needs the block size in GB' }];
  return [];
}

function rcloneErrors(section: unknown): FieldError[] {
  if (!isObj(section)) return [];
  const errors: FieldError[] = [];
  const url = str(section.rc_url);
  if (url && !isHttpUrl(url)) errors.push({ field: 'rclone.rc_url', message: 'Invalid URL format' });
  // rcd-wide rclone options, sent by RC options/set in their block (docs/configuration.md).
  for (const key of Object.keys(isObj(section.rc_options) ? section.rc_options : {}))
    if (!/^[A-Za-z][\w-]*\.[A-Za-z]\w*$/.test(key))
      errors.push({ field: 'rclone.rc_options', message: `'${key}' must be <block>.<Option>, e.g. main.Checkers` });
  const options = isObj(section.mount_options) ? section.mount_options : {};
  const backend = options.backend;
  if (backend !== undefined && !['native', 'rclone'].includes(String(backend).trim().toLowerCase()))
    errors.push({ field: 'rclone.mount_options', message: 'backend must be native or rclone' });
  const webdavUrl = options.webdav_url;
  if (webdavUrl !== undefined && !isHttpUrl(String(webdavUrl)))
    errors.push({ field: 'rclone.mount_options', message: 'webdav_url must be an http(s) URL' });
  return errors;
}

function sabnzbdErrors(section: unknown): FieldError[] {
  if (!isObj(section) || section.enabled !== true) return [];
  const errors: FieldError[] = [];
  const dir = section.complete_dir;
  if (blank(dir)) {
    errors.push({
      field: 'sabnzbd.complete_dir',
      message: 'Complete directory is required when SABnzbd API is enabled',
    });
  } else if (typeof dir === 'string' && !dir.startsWith('/')) {
    errors.push({
      field: 'sabnzbd.complete_dir',
      message: 'Complete directory must be an absolute path (starting with /)',
    });
  }
  const categories = list(section.categories).filter(isObj);
  if (categories.some((c) => typeof c.name === 'string' && c.name.trim() === '')) {
    errors.push({ field: 'sabnzbd.categories', message: 'Category names cannot be empty' });
  }
  const names = categories.map((c) => str(c.name)?.trim()).filter((n): n is string => !!n);
  const duplicates = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
  if (duplicates.length > 0) {
    errors.push({ field: 'sabnzbd.categories', message: `Duplicate category names found: ${duplicates.join(', ')}` });
  }
  categories.forEach((c, i) => {
    // The arrs strip a trailing '*' (SABnzbd's "job folders" marker) and fail their test on it.
    if (str(c.dir)?.endsWith('*')) {
      errors.push({ field: `sabnzbd.categories.${i}.dir`, message: 'Category directory must not end with *' });
    }
  });
  return errors;
}

function arrsErrors(section: unknown): FieldError[] {
  if (!isObj(section)) return [];
  const errors: FieldError[] = [];
  const names: string[] = [];
  for (const type of ['radarr', 'sonarr'] as const) {
    const key = `${type}_instances`;
    const label = type === 'radarr' ? 'Radarr' : 'Sonarr';
    list(section[key]).forEach((inst, i) => {
      if (!isObj(inst)) return;
      const field = `arrs.${key}.${i}`;
      if (typeof inst.type === 'string' && inst.type !== type) {
        errors.push({ field: `${field}.type`, message: `Instance type must be ${type} in ${key}` });
      }
      if (section.enabled !== true) return;
      const prefix = `${label} instance #${i + 1}`;
      if (blank(inst.name)) errors.push({ field: `${field}.name`, message: `${prefix}: Name is required` });
      else names.push((inst.name as string).trim());
      if (blank(inst.url)) errors.push({ field: `${field}.url`, message: `${prefix}: URL is required` });
      else if (!isHttpUrl((inst.url as string).trim())) {
        errors.push({ field: `${field}.url`, message: `${prefix}: Invalid URL format` });
      }
      if (blank(inst.api_key)) errors.push({ field: `${field}.api_key`, message: `${prefix}: API key is required` });
    });
  }
  const duplicates = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
  for (const n of duplicates) errors.push({ field: 'arrs', message: `Instance name "${n}" is used multiple times` });
  return errors;
}

/** Media server names are how secrets and the activity list find a server: each once. */
function mediaServerErrors(section: unknown): FieldError[] {
  if (!isObj(section)) return [];
  const names = list(section.servers).flatMap((m) => (isObj(m) && typeof m.name === 'string' ? [m.name.trim()] : []));
  const duplicates = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
  return duplicates.map((n) => ({
    field: 'media_servers.servers',
    message: `Media server name "${n}" is used multiple times`,
  }));
}
