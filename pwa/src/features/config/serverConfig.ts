/**
 * The server's own config constants (defaults, number ranges and fallbacks), so the console's forms and the
 * server's validation can never disagree. Imported from the server's wire file (docs/contributing.md "Wire types").
 */
export {
  DEFAULTS,
  PROVIDER_DEFAULTS,
  NUMERIC_FALLBACKS,
  RESTART_REQUIRED_FIELDS,
  type NumericField,
  type ProviderConfig,
} from '../../../../appliance/config/config.wire';
