import type { ZodError } from 'zod';
import { AppError } from './app-error.js';

/** One field problem in a validation error; `details` of VALIDATION_FAILED is a list of these. */
export interface FieldError {
  field: string;
  message: string;
}

export const validationFailed = (errors: FieldError[], message?: string) =>
  new AppError(
    'VALIDATION_FAILED',
    message ?? `Validation failed: ${errors.map((e) => (e.field ? `${e.field}: ${e.message}` : e.message)).join('; ')}`,
    errors,
  );

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
