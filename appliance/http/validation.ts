import type { ZodError } from 'zod';
import type { FieldError } from './errors.js';

/** Flattens a zod error into `{field, message}` pairs with dotted paths ("providers.0.port"). */
export function zodToFieldErrors(error: ZodError): FieldError[] {
  return error.issues.map((issue) => {
    const field = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys.join(', ');
      return { field, message: `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${keys}` };
    }
    return { field, message: issue.message };
  });
}
