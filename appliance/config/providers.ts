import { randomUUID } from 'node:crypto';
import { AppError } from '../errors/app-error.js';
import { validationFailed, type FieldError } from '../errors/field-errors.js';
import { PROVIDER_DEFAULTS } from './defaults.js';
import { isPlainObject } from './normalize.js';
import type { ProviderConfig } from './schema.js';
import { keepSecret } from './secrets.js';

/**
 * The provider list edits behind the providers API (docs/console-contract.md §7: POST, PUT /{id} with changed fields only, DELETE,
 * PUT /reorder). Pure: each returns the next list; the service validates the whole config and writes it.
 * List order is priority: the first provider is used first.
 */
type Obj = Record<string, unknown>;

function requireObject(input: unknown): Obj {
  if (!isPlainObject(input)) throw validationFailed([{ field: '', message: 'Must be an object' }]);
  return structuredClone(input);
}

/**
 * The providers reads may use: every entry but the candidates (docs/providers.md "Fit report"). A candidate never
 * reaches the pool, so no read, import, health check or repair can ask it; only the fit sampler does.
 */
export function readProviders(list: readonly ProviderConfig[]): ProviderConfig[] {
  return list.filter((p) => !p.candidate);
}

/** The candidate accounts the fit sampler STATs. */
export function candidateProviders(list: readonly ProviderConfig[]): ProviderConfig[] {
  return list.filter((p) => p.candidate);
}

export function addProvider(list: readonly ProviderConfig[], input: unknown): { next: unknown[]; id: string } {
  const entry = requireObject(input);
  keepSecret(entry, 'password', undefined);
  const id = typeof entry.id === 'string' && entry.id.trim() !== '' ? entry.id : randomUUID();
  if (list.some((p) => p.id === id)) throw new AppError('ALREADY_EXISTS', `A provider with id "${id}" already exists`);
  return { next: [...list, { ...PROVIDER_DEFAULTS, ...entry, id }], id };
}

export function updateProvider(list: readonly ProviderConfig[], id: string, changes: unknown): unknown[] {
  const index = indexOf(list, id);
  const entry = requireObject(changes);
  if (entry.id !== undefined && entry.id !== id) {
    throw validationFailed([{ field: 'id', message: 'The provider id cannot be changed' }]);
  }
  const stored = list[index] as ProviderConfig;
  keepSecret(entry, 'password', stored.password);
  const next: unknown[] = [...list];
  next[index] = { ...stored, ...entry, id };
  return next;
}

export function deleteProvider(list: readonly ProviderConfig[], id: string): ProviderConfig[] {
  const index = indexOf(list, id);
  return list.filter((_, i) => i !== index);
}

export function reorderProviders(list: readonly ProviderConfig[], ids: unknown): ProviderConfig[] {
  const wanted = Array.isArray(ids) ? ids : null;
  const permutation =
    wanted !== null &&
    wanted.length === list.length &&
    new Set(wanted).size === wanted.length &&
    wanted.every((id) => list.some((p) => p.id === id));
  if (!permutation) {
    throw validationFailed([{ field: 'provider_ids', message: 'Must list every provider id exactly once' }]);
  }
  return wanted.map((id) => list.find((p) => p.id === id) as ProviderConfig);
}

/**
 * An expiry date set (added, or changed from what is stored) before today is refused: the operator typed a wrong
 * date. A date that was set in the future and has since passed stays valid (the file must still load).
 */
export function pastExpiryErrors(
  prev: readonly ProviderConfig[],
  next: readonly unknown[],
  today: string,
): FieldError[] {
  const errors: FieldError[] = [];
  next.forEach((entry, i) => {
    if (!isPlainObject(entry) || typeof entry.expires_on !== 'string') return;
    const stored = prev.find((p) => p.id === entry.id)?.expires_on;
    if (entry.expires_on !== stored && entry.expires_on < today)
      errors.push({
        field: `providers.${i}.expires_on`,
        message: `The expiry date ${entry.expires_on} is in the past`,
      });
  });
  return errors;
}

/** Today's local date, `YYYY-MM-DD` (the calendar the quotas count in: docs/nntp.md "Quotas and expiry"). */
export function localDay(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Errors of one provider entry with the list prefix removed ("providers.2.port" -> "port"), for the form. */
export function errorsForEntry(errors: FieldError[], index: number): FieldError[] {
  const prefix = `providers.${index}.`;
  return errors.map((e) => (e.field.startsWith(prefix) ? { ...e, field: e.field.slice(prefix.length) } : e));
}

function indexOf(list: readonly ProviderConfig[], id: string): number {
  const index = list.findIndex((p) => p.id === id);
  if (index < 0) throw new AppError('NO_SUCH_RECORD', `No provider with id "${id}"`);
  return index;
}
