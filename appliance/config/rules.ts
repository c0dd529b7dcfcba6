import type { FieldError } from '../errors/field-errors.js';

/**
 * Rules that look at more than one field (spec §5). They run on the candidate even when zod found type errors
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
    ...absolutePathErrors(candidate),
    ...authErrors(candidate.auth),
    ...importErrors(candidate.import),
    ...providerErrors(candidate.providers),
    ...rcloneErrors(candidate.rclone),
    ...sabnzbdErrors(candidate.sabnzbd),
    ...arrsErrors(candidate.arrs),
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

function authErrors(section: unknown): FieldError[] {
  if (!isObj(section)) return [];
  const errors: FieldError[] = [];
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
  });
  return errors;
}

function rcloneErrors(section: unknown): FieldError[] {
  if (!isObj(section)) return [];
  const url = str(section.rc_url);
  if (url && !isHttpUrl(url)) return [{ field: 'rclone.rc_url', message: 'Invalid URL format' }];
  return [];
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
