import { z } from 'zod';
import { USER_ROLES } from './auth.wire.js';
import { MAX_PASSWORD_LENGTH } from './password.js';

/** Registration input with the texts of docs/console-contract.md §5; every bad field is reported at once. */
export const registerSchema = z.strictObject({
  username: z
    .string({ error: 'Username is required' })
    .trim()
    .min(3, 'Username must be at least 3 characters long')
    .max(64, 'Username must be at most 64 characters long')
    // A colon would make HTTP Basic ("name:password") ambiguous; control characters have no place in a name.
    .regex(/^[^:\p{Cc}]+$/u, 'Username must not contain ":" or control characters'),
  email: z
    .union([z.literal(''), z.null(), z.string().trim().pipe(z.email('Email address is invalid'))])
    .optional()
    .transform((v) => (v ? v : null)),
  password: z
    .string({ error: 'Password is required' })
    .min(8, 'Password must be at least 8 characters long')
    .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters long`),
});
export type RegisterInput = z.infer<typeof registerSchema>;

export const loginSchema = z.strictObject({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required'),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(MAX_PASSWORD_LENGTH),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const setAdminSchema = z.strictObject({
  is_admin: z.boolean({ error: 'is_admin must be true or false' }),
});

export const setRoleSchema = z.strictObject({
  role: z.enum(USER_ROLES, { error: `role must be one of ${USER_ROLES.join(', ')}` }),
});
