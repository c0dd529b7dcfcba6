/**
 * The configuration domain: one YAML file (docs/console-contract.md §3 sections, docs/console-contract.md §9 defaults), validated as a whole.
 *
 * Public interface (import from 'appliance/config/index.js'; other domains must not reach into the files):
 *
 *   const config = await ConfigService.open({ env: process.env, logger });   // throws ConfigLoadError on a bad file
 *   config.get(): SpoolConfig              deep-frozen, typed; never mutate, read again after a change
 *   config.redacted(): RedactedConfig      for GET /api/config: secrets replaced by *_set booleans
 *   config.replace(full) / patchSection(section, partial) -> Promise<WriteResult>  (validated, atomic, serialised)
 *   config.validate(candidate) -> {valid, errors[]}   (no write)
 *   config.reload() -> Promise<WriteResult>           (re-reads the file; on errors keeps the old config, throws 400)
 *   config.on('change', (next, prev, changedPaths) => ...)    changedPaths like ['webdav.port', 'providers.0.host']
 *   config.restartRequired(prev, next) / config.pendingRestart()   restart-only fields changed since start
 *   config.addProvider / updateProvider / deleteProvider / reorderProviders / listProviders   (providers API)
 *   config.path, config.dataDir
 *
 * Routes: registerConfigRoutes(router, {config}) in appliance/api/config.routes.ts.
 * Numeric input fallbacks for the console (docs/console-contract.md §5): NUMERIC_FALLBACKS / numericFallback in fallbacks.ts.
 */
export * from './schema.js';
export { DEFAULTS, PROVIDER_DEFAULTS, CATEGORY_DEFAULTS, ARR_INSTANCE_DEFAULTS } from './defaults.js';
export { defaultsFor } from './data-dir-defaults.js';
export { validateConfig, describeErrors, type ValidationResult } from './validate.js';
export { withDefaults, changedPaths } from './normalize.js';
export {
  ConfigService,
  ConfigLoadError,
  resolveLocation,
  type ConfigServiceOptions,
  type WriteResult,
  type ChangeListener,
} from './config.service.js';
export {
  MASKED_SECRET,
  SECRET_KEYS,
  redact,
  type RedactedConfig,
  type RedactedProvider,
  type RedactedArrInstance,
} from './secrets.js';
export { readProviders, candidateProviders } from './providers.js';
export { CONFIG_FILE_MODE } from './config.file.js';
export { NUMERIC_FALLBACKS, numericFallback, type NumericField, type NumericFallbackField } from './fallbacks.js';
