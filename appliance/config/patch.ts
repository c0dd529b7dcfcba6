import { validationFailed } from '../errors/field-errors.js';
import { isPlainObject } from './normalize.js';
import { PATCHABLE_SECTIONS, type PatchableSection } from './schema.js';

export const isPatchableSection = (s: string): s is PatchableSection =>
  (PATCHABLE_SECTIONS as readonly string[]).includes(s);

/**
 * Turns `PATCH /config/{section}` into a partial config: `{[section]: fields}`. The console's two special cases
 * (docs/console-contract.md §7): `system` carries only the top-level `mount_path`, and `rclone` may carry `mount_path` beside its
 * own fields. Providers are not patchable here; they have their own API.
 */
export function patchInput(section: string, partial: unknown): Record<string, unknown> {
  if (!isPatchableSection(section)) {
    throw validationFailed([
      { field: 'section', message: `Unknown section "${section}"; one of: ${PATCHABLE_SECTIONS.join(', ')}` },
    ]);
  }
  if (!isPlainObject(partial)) throw validationFailed([{ field: section, message: 'Must be an object' }]);
  const fields = structuredClone(partial);
  if (section === 'system') {
    const unknown = Object.keys(fields).filter((k) => k !== 'mount_path');
    if (unknown.length > 0) {
      throw validationFailed(unknown.map((k) => ({ field: `system.${k}`, message: 'Unknown field' })));
    }
    return 'mount_path' in fields ? { mount_path: fields.mount_path } : {};
  }
  const input: Record<string, unknown> = { [section]: fields };
  if (section === 'rclone' && 'mount_path' in fields) {
    input.mount_path = fields.mount_path;
    delete fields.mount_path;
  }
  return input;
}
