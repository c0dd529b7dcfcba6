/**
 * The server's config constants the console's forms share (docs/console-contract.md: defaults, number ranges and
 * fallbacks), so the two can never disagree. defaults.ts and fallbacks.ts are pure data with no Node imports
 * (`npm run lint` checks what a wire file loads); the console imports them through this file only.
 */
export { DEFAULTS, PROVIDER_DEFAULTS } from './defaults.js';
export { NUMERIC_FALLBACKS, type NumericField } from './fallbacks.js';
export { RESTART_REQUIRED_FIELDS } from './restart-fields.js';
export type { ProviderConfig } from '../nntp/types.js';
