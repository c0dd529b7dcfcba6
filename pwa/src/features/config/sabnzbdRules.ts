import type { SabnzbdCategory, SabnzbdConfig } from '../../api/types';

/** What the fallback key field shows when a key is stored (docs/console-contract.md §4): it is never sent back as the key. */
export const MASKED_KEY = '********';

export interface SabnzbdErrors {
  complete_dir?: string;
  categories?: string[];
}

/** docs/console-contract.md §5, only while the API is enabled; the texts are the spec's, word for word. */
export function sabnzbdErrors(form: Pick<SabnzbdConfig, 'enabled' | 'complete_dir' | 'categories'>): SabnzbdErrors {
  if (!form.enabled) return {};
  const errors: SabnzbdErrors = {};
  const dir = form.complete_dir.trim();
  if (dir === '') errors.complete_dir = 'Complete directory is required when SABnzbd API is enabled';
  else if (!dir.startsWith('/')) errors.complete_dir = 'Complete directory must be an absolute path (starting with /)';
  const cats: string[] = [];
  const names = form.categories.map((c) => c.name.trim());
  const duplicates = [...new Set(names.filter((n, i) => n !== '' && names.indexOf(n) !== i))];
  if (duplicates.length > 0) cats.push(`Duplicate category names found: ${duplicates.join(', ')}`);
  if (names.some((n) => n === '')) cats.push('Category names cannot be empty');
  if (cats.length > 0) errors.categories = cats;
  return errors;
}

/** A new category (docs/console-contract.md §5): order 1, priority 0, empty dir; the list stays sorted by order. */
export function addCategory(list: readonly SabnzbdCategory[], rawName: string): SabnzbdCategory[] {
  const name = rawName.trim();
  if (name === '') return [...list];
  return sortCategories([...list, { name, order: 1, priority: 0, dir: '' }]);
}

export function sortCategories(list: readonly SabnzbdCategory[]): SabnzbdCategory[] {
  return [...list].sort((a, b) => a.order - b.order);
}

/** The PATCH payload: the key only when the user typed a new one that is not the mask. */
export function sabnzbdPayload(
  form: Omit<SabnzbdConfig, 'fallback_api_key_set'> & { fallback_api_key: string; fallback_api_key_set?: boolean },
): Record<string, unknown> {
  const { fallback_api_key, fallback_api_key_set: _set, ...rest } = form;
  const payload: Record<string, unknown> = { ...rest, categories: sortCategories(form.categories) };
  if (fallback_api_key !== '' && fallback_api_key !== MASKED_KEY) payload.fallback_api_key = fallback_api_key;
  return payload;
}
