import { randomUUID } from 'node:crypto';
import { ARR_INSTANCE_DEFAULTS, CATEGORY_DEFAULTS, NOTIFY_TARGET_DEFAULTS, PROVIDER_DEFAULTS } from './defaults.js';
import type { SpoolConfig } from './schema.js';

type Obj = Record<string, unknown>;

export const isPlainObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Deep merge: objects merge key by key, anything else (arrays included) from `over` replaces `base`.
 * Keys only in `over` are kept, so unknown fields still reach the strict schema and are reported.
 */
export function deepMerge(base: unknown, over: unknown): unknown {
  if (over === undefined) return structuredClone(base);
  if (!isPlainObject(base) || !isPlainObject(over)) return structuredClone(over);
  const out: Obj = structuredClone(base);
  for (const [k, v] of Object.entries(over)) setOwn(out, k, deepMerge(Object.hasOwn(base, k) ? base[k] : undefined, v));
  return out;
}

/**
 * Sets a key as an own property. A plain assignment of "__proto__" (which JSON.parse happily produces) would swap
 * the object's prototype instead; as an own key it reaches the strict schema and is reported as unknown.
 */
export function setOwn(obj: Obj, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Fills whatever a (hand-written or partial) config leaves out from `defaults`: missing sections and fields, and
 * per-entry defaults inside providers, categories and arr instances. A section written as an empty YAML key
 * (null) counts as missing. Providers without an id get a fresh one; the caller persists it so ids stay stable.
 */
export function withDefaults(input: unknown, defaults: SpoolConfig): { candidate: unknown; generatedIds: boolean } {
  if (input === null || input === undefined) input = {};
  if (!isPlainObject(input)) return { candidate: input, generatedIds: false };
  const cleaned: Obj = {};
  for (const [k, v] of Object.entries(input)) {
    const sectionDefault = Object.hasOwn(defaults, k) ? (defaults as unknown as Obj)[k] : undefined;
    setOwn(cleaned, k, v === null && isPlainObject(sectionDefault) ? {} : v);
  }
  const merged = deepMerge(defaults, cleaned) as Obj;
  let generatedIds = false;
  merged.providers = mapEntries(merged.providers, (p) => {
    const filled: Obj = { ...PROVIDER_DEFAULTS, ...p };
    if (filled.id === undefined || filled.id === null || filled.id === '') {
      filled.id = randomUUID();
      generatedIds = true;
    }
    return filled;
  });
  if (isPlainObject(merged.sabnzbd)) {
    merged.sabnzbd.categories = mapEntries(merged.sabnzbd.categories, (c) => ({ ...CATEGORY_DEFAULTS, ...c }));
  }
  if (isPlainObject(merged.arrs)) {
    for (const type of ['radarr', 'sonarr']) {
      const key = `${type}_instances`;
      merged.arrs[key] = mapEntries(merged.arrs[key], (a) => ({ ...ARR_INSTANCE_DEFAULTS, type, ...a }));
    }
  }
  if (isPlainObject(merged.notifications)) {
    merged.notifications.targets = mapEntries(merged.notifications.targets, (t) => ({
      ...structuredClone(NOTIFY_TARGET_DEFAULTS),
      ...t,
    }));
  }
  return { candidate: merged, generatedIds };
}

/** Applies `fill` to each object entry of an array; leaves non-arrays and non-object entries for zod to report. */
function mapEntries(value: unknown, fill: (entry: Obj) => Obj): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((entry) => (isPlainObject(entry) ? fill(entry) : entry));
}

/** Dotted paths of every leaf that differs ("webdav.port", "providers.1.host"; an array of new length by itself). */
export function changedPaths(prev: unknown, next: unknown, prefix = ''): string[] {
  if (Object.is(prev, next)) return [];
  if (isPlainObject(prev) && isPlainObject(next)) {
    const keys = new Set([...Object.keys(prev), ...Object.keys(next)]);
    return [...keys].flatMap((k) => changedPaths(prev[k], next[k], prefix ? `${prefix}.${k}` : k));
  }
  if (Array.isArray(prev) && Array.isArray(next) && prev.length === next.length) {
    return prev.flatMap((v, i) => changedPaths(v, next[i], prefix ? `${prefix}.${i}` : String(i)));
  }
  return [prefix];
}

/**
 * A PATCH merge: each section given replaces the stored section's keys it names; nested maps such as
 * rclone.rc_options are replaced whole (a removed option must disappear) and lists replace lists.
 */
export function mergeSections(current: unknown, input: unknown): unknown {
  if (!isPlainObject(input) || !isPlainObject(current)) return input;
  const out: Obj = structuredClone(current);
  for (const [k, v] of Object.entries(input)) {
    const stored = Object.hasOwn(out, k) ? out[k] : undefined;
    if (isPlainObject(v) && isPlainObject(stored)) {
      for (const [field, value] of Object.entries(v)) setOwn(stored, field, value);
    } else {
      setOwn(out, k, v);
    }
  }
  return out;
}
