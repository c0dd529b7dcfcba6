import type { ZodError } from 'zod';
import type { FieldError } from '../errors/field-errors.js';
import { zodToFieldErrors } from '../errors/field-errors.js';
import { deepFreeze } from './defaults.js';
import { crossFieldErrors } from './rules.js';
import { configSchema, type SpoolConfig } from './schema.js';

export type ValidationResult = { ok: true; config: SpoolConfig } | { ok: false; errors: FieldError[] };

/**
 * Validates a complete candidate (defaults already filled in): schema and cross-field rules together, so the
 * caller gets every bad field in one answer. On success the config is deep-frozen.
 */
export function validateConfig(candidate: unknown): ValidationResult {
  const parsed = configSchema.safeParse(candidate);
  const errors = [...(parsed.success ? [] : configFieldErrors(parsed.error)), ...crossFieldErrors(candidate)];
  if (errors.length > 0 || !parsed.success) return { ok: false, errors: dedupe(errors) };
  return { ok: true, config: deepFreeze(parsed.data) };
}

/** Plain words for a value of the wrong type (zod's own text names JavaScript types). */
const EXPECTED: Record<string, string> = {
  number: 'Must be a number',
  int: 'Must be a whole number',
  string: 'Must be text',
  boolean: 'Must be true or false',
  array: 'Must be a list',
  object: 'Must be an object',
  record: 'Must be an object',
};

/** zod issues as `{field, message}`, with each unknown key named by its own full path ("webdav.colour"). */
export function configFieldErrors(error: ZodError): FieldError[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === 'invalid_type' && issue.expected in EXPECTED) {
      return [{ field: issue.path.map(String).join('.'), message: EXPECTED[issue.expected] as string }];
    }
    if (issue.code !== 'unrecognized_keys') return zodToFieldErrors({ issues: [issue] } as ZodError);
    const parent = issue.path.map(String).join('.');
    return issue.keys.map((key) => ({ field: parent ? `${parent}.${key}` : key, message: 'Unknown field' }));
  });
}

function dedupe(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const key = `${e.field}\u0000${e.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** One line per error, for logs and the startup failure message. */
export function describeErrors(errors: FieldError[]): string {
  return errors.map((e) => `  - ${e.field || '(root)'}: ${e.message}`).join('\n');
}
