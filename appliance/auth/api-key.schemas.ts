import { z } from 'zod';
import { KEY_SCOPES } from './api-key.js';

/** POST /api/user/api-keys: a name to recognise the key by and one of the scopes (api-key.wire.ts). */
export const createApiKeySchema = z.strictObject({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(64, 'Name must be at most 64 characters long')
    .regex(/^[^\p{Cc}]+$/u, 'Name must not contain control characters'),
  scope: z.enum(KEY_SCOPES, { error: `Scope must be one of ${KEY_SCOPES.join(', ')}` }),
});
