import assert from 'node:assert/strict';
import { defaultsFor } from '../../../appliance/config/data-dir-defaults.js';
import { withDefaults } from '../../../appliance/config/normalize.js';
import { validateConfig } from '../../../appliance/config/validate.js';

/** Validates a config of one provider entry (its host given) with every other key at its default. */
export const checkProvider = (provider: Record<string, unknown>) =>
  validateConfig(
    withDefaults({ providers: [{ host: 'news.example.com', ...provider }] }, defaultsFor('/srv/spool')).candidate,
  );

/** The message a refused provider entry gets for `field` (asserting it was refused). */
export function providerFieldMessage(provider: Record<string, unknown>, field: string): string | undefined {
  const result = checkProvider(provider);
  assert.equal(result.ok, false, `expected ${JSON.stringify(provider)} to be refused`);
  return result.ok ? undefined : result.errors.find((e) => e.field === `providers.0.${field}`)?.message;
}
