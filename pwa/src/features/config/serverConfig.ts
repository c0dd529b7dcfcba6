/**
 * The server's own config constants (spec §9 defaults, spec §5 number ranges and fallbacks), so the console's forms
 * and the server's validation can never disagree. Both files are pure data with no Node imports; keep it that way,
 * since they are bundled into the console from here.
 */
export { DEFAULTS, PROVIDER_DEFAULTS } from '../../../../appliance/config/defaults';
export { NUMERIC_FALLBACKS, type NumericField } from '../../../../appliance/config/fallbacks';
export type { ProviderConfig } from '../../../../appliance/nntp/types';
