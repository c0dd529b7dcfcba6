import { EventEmitter } from 'node:events';
import path from 'node:path';
import { AppError } from '../errors/app-error.js';
import { validationFailed, type FieldError } from '../errors/field-errors.js';
import { createLogger, type Logger } from '../logging/logger.js';
import { readConfigFile, renderConfig, writeFileAtomic } from './config.file.js';
import { defaultsFor } from './data-dir-defaults.js';
import { changedPaths, isPlainObject, mergeSections, withDefaults } from './normalize.js';
import { patchInput } from './patch.js';
import * as providerOps from './providers.js';
import { RESTART_REQUIRED_FIELDS, type SpoolConfig } from './schema.js';
import type { ConfigWriteResult } from './config.wire.js';
import { sharedPart, withNodeLocal } from './node-local.js';
import { StaleSharedConfig, type SharedConfigLink } from './shared-link.js';
import { keepSecrets, redact, redactProvider, type RedactedConfig, type RedactedProvider } from './secrets.js';
import { describeErrors, validateConfig, type ValidationResult } from './validate.js';

export interface ConfigServiceOptions {
  /** Explicit file path; otherwise SPOOL_CONFIG, otherwise `<data dir>/config.yaml`. */
  configPath?: string;
  /** Explicit data dir; otherwise SPOOL_DATA, otherwise ./data. */
  dataDir?: string;
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
}

/** What every write answers: the new redacted config and the restart-only fields changed since start. */
export type WriteResult = ConfigWriteResult;

export type ChangeListener = (next: SpoolConfig, prev: SpoolConfig, changedPaths: string[]) => void;

/** The file at startup could not be used; `errors` lists every problem. */
export class ConfigLoadError extends Error {
  constructor(
    readonly file: string,
    readonly errors: FieldError[],
  ) {
    super(
      `Configuration file ${file} has errors; Spool will not start until they are fixed:\n${describeErrors(errors)}`,
    );
    this.name = 'ConfigLoadError';
  }
}

export function resolveLocation(opts: ConfigServiceOptions = {}): { configPath: string; dataDir: string } {
  const env = opts.env ?? process.env;
  const dataDir = path.resolve(opts.dataDir ?? (env.SPOOL_DATA || './data'));
  const configPath = path.resolve(opts.configPath ?? (env.SPOOL_CONFIG || path.join(dataDir, 'config.yaml')));
  return { configPath, dataDir };
}

export class ConfigService {
  private readonly events = new EventEmitter();
  /** Writes run one at a time, each on the result of the last: no lost update, no interleaved file. */
  private queue: Promise<unknown> = Promise.resolve();
  /** The document shared with other nodes on PostgreSQL (`linkShared`); null on a single node. */
  private shared: SharedConfigLink | null = null;

  private constructor(
    readonly path: string,
    readonly dataDir: string,
    private readonly defaults: SpoolConfig,
    private current: SpoolConfig,
    /** The config the process started with: restart-only fields are compared against it. */
    private boot: SpoolConfig,
    private readonly logger: Logger,
  ) {}

  /** Loads (or on first run writes) the config file. Throws ConfigLoadError listing every problem. */
  static async open(opts: ConfigServiceOptions = {}): Promise<ConfigService> {
    const { configPath, dataDir } = resolveLocation(opts);
    const logger = opts.logger ?? createLogger('spool').child('config');
    const defaults = defaultsFor(dataDir);
    const parsed = await readConfigFile(configPath);
    if (parsed === null) {
      await writeFileAtomic(configPath, renderConfig(defaults));
      logger.info('wrote default configuration', { path: configPath });
      return new ConfigService(configPath, dataDir, defaults, defaults, defaults, logger);
    }
    if (!parsed.ok) throw new ConfigLoadError(configPath, parsed.errors);
    const { candidate, generatedIds } = withDefaults(parsed.value, defaults);
    const result = validateConfig(candidate);
    if (!result.ok) throw new ConfigLoadError(configPath, result.errors);
    // Ids given to providers written without one must survive the next start.
    if (generatedIds) await writeFileAtomic(configPath, renderConfig(result.config));
    logger.info('loaded configuration', { path: configPath });
    return new ConfigService(configPath, dataDir, defaults, result.config, result.config, logger);
  }

  get(): SpoolConfig {
    return this.current;
  }

  redacted(): RedactedConfig {
    return redact(this.current);
  }

  /** Checks a full config, or a `{section, config}` patch, against the running config without writing. */
  validate(candidate: unknown): { valid: boolean; errors: FieldError[] } {
    const isPatch = isPlainObject(candidate) && Object.keys(candidate).sort().join() === 'config,section';
    try {
      const result = isPatch
        ? this.preparePatch(String(candidate.section), candidate.config)
        : this.prepareReplace(candidate);
      return result.ok ? { valid: true, errors: [] } : { valid: false, errors: result.errors };
    } catch (err) {
      if (err instanceof AppError && Array.isArray(err.details)) return { valid: false, errors: err.details };
      throw err;
    }
  }

  /** PUT: the whole config. Missing fields take defaults; omitted secrets keep their stored values. */
  replace(full: unknown): Promise<WriteResult> {
    return this.saving(async () => this.commit(this.prepareReplace(full)));
  }

  /** PATCH one section (docs/console-contract.md §7); `rclone` may carry `mount_path`, `system` is `{mount_path}`. */
  patchSection(section: string, partial: unknown): Promise<WriteResult> {
    return this.saving(async () => this.commit(this.preparePatch(section, partial)));
  }

  /** Re-reads the file. On any error the running config stays and the errors are thrown (400). */
  reload(): Promise<WriteResult> {
    return this.exclusive(async () => {
      const parsed = await readConfigFile(this.path);
      const kept = 'the running configuration was kept';
      if (parsed === null)
        throw new AppError('CONFIG_FILE_MISSING', `Configuration file ${this.path} does not exist; ${kept}`);
      if (!parsed.ok) throw validationFailed(parsed.errors, `Configuration file has errors; ${kept}`);
      const result = validateConfig(withDefaults(parsed.value, this.defaults).candidate);
      if (!result.ok)
        throw validationFailed(result.errors, `Configuration file has errors; ${kept}: ${summary(result.errors)}`);
      return this.commit(result, 'file').catch((err: unknown) => {
        throw staleAsConflict(err);
      });
    });
  }

  /**
   * Shares this node's config with other nodes through `link` (config-share.ts; null stops). From then on every
   * save is stored there first, and `pullShared` brings in the saves of other nodes.
   */
  linkShared(link: SharedConfigLink | null): void {
    this.shared = link;
  }

  /**
   * Adopts the shared document when it is newer than the running one: merged with this node's node-local keys,
   * validated, written to the file (the last-known config a node starts with) and applied as a save is ('change').
   * An invalid document is refused (400 listing its errors); the running config stays. `startup`: the node is
   * starting, so the adopted config is the one it starts with (no restart banner).
   */
  pullShared(opts: { startup?: boolean } = {}): Promise<WriteResult | null> {
    return this.exclusive(async () => {
      const out = await this.adoptShared();
      if (out && opts.startup) this.boot = this.current;
      return out;
    });
  }

  private async adoptShared(): Promise<WriteResult | null> {
    const row = await this.shared?.newer();
    if (!row) return null;
    const candidate = withDefaults(withNodeLocal(row.doc, this.current), this.defaults).candidate;
    const result = validateConfig(candidate);
    if (!result.ok) {
      const kept = `the shared configuration (version ${row.version}) is invalid; this node keeps its running one`;
      throw validationFailed(result.errors, `${kept}: ${summary(result.errors)}`);
    }
    const out = await this.commit(result, 'shared');
    this.shared?.adopted(row.version);
    return out;
  }

  on(event: 'change', listener: ChangeListener): () => void {
    this.events.on(event, listener);
    return () => this.events.off(event, listener);
  }

  /** Restart-only fields (restart-fields.ts) that differ. */
  restartRequired(prev: SpoolConfig, next: SpoolConfig): string[] {
    const changed = new Set(changedPaths(prev, next));
    return RESTART_REQUIRED_FIELDS.filter((f) => changed.has(f));
  }

  /** Restart-only fields whose running value differs from the one the process started with. */
  pendingRestart(): string[] {
    return this.restartRequired(this.boot, this.current);
  }

  listProviders(): RedactedProvider[] {
    return this.current.providers.map(redactProvider);
  }

  addProvider(input: unknown): Promise<RedactedProvider> {
    return this.saving(async () => {
      const { next, id } = providerOps.addProvider(this.current.providers, input);
      await this.commitProviders(next, next.length - 1);
      return this.providerById(id);
    });
  }

  updateProvider(id: string, changes: unknown): Promise<RedactedProvider> {
    return this.saving(async () => {
      const next = providerOps.updateProvider(this.current.providers, id, changes);
      await this.commitProviders(
        next,
        this.current.providers.findIndex((p) => p.id === id),
      );
      return this.providerById(id);
    });
  }

  deleteProvider(id: string): Promise<void> {
    return this.saving(async () => {
      await this.commitProviders(providerOps.deleteProvider(this.current.providers, id), -1);
    });
  }

  reorderProviders(ids: unknown): Promise<RedactedProvider[]> {
    return this.saving(async () => {
      await this.commitProviders(providerOps.reorderProviders(this.current.providers, ids), -1);
      return this.listProviders();
    });
  }

  private prepareReplace(full: unknown): ValidationResult {
    if (!isPlainObject(full)) return { ok: false, errors: [{ field: '', message: 'Must be an object' }] };
    const candidate = withDefaults(keepSecrets(full, this.current), this.defaults).candidate;
    const providers = isPlainObject(candidate) ? candidate.providers : undefined;
    const next = Array.isArray(providers) ? (providers as unknown[]) : [];
    return withPastExpiry(validateConfig(candidate), this.current.providers, next);
  }

  private preparePatch(section: string, partial: unknown): ValidationResult {
    const input = keepSecrets(patchInput(section, partial), this.current);
    return validateConfig(withDefaults(mergeSections(this.current, input), this.defaults).candidate);
  }

  private async commitProviders(next: unknown[], index: number): Promise<void> {
    const result = withPastExpiry(validateConfig({ ...this.current, providers: next }), this.current.providers, next);
    if (!result.ok)
      throw validationFailed(index >= 0 ? providerOps.errorsForEntry(result.errors, index) : result.errors);
    await this.commit(result);
  }

  private providerById(id: string): RedactedProvider {
    return redactProvider(this.current.providers.find((p) => p.id === id) as SpoolConfig['providers'][number]);
  }

  /**
   * Writes a validated config and announces what changed. A save (or a reload of the hand-edited file) is stored
   * for the other nodes first when the config is shared; the file is written unless the config came from it.
   */
  private async commit(result: ValidationResult, origin: 'save' | 'file' | 'shared' = 'save'): Promise<WriteResult> {
    if (!result.ok) throw validationFailed(result.errors);
    const prev = this.current;
    const next = result.config;
    const paths = changedPaths(prev, next);
    if (paths.length > 0 || origin === 'file') {
      const link = origin === 'shared' ? null : this.shared;
      const share = link !== null && changedPaths(sharedPart(prev), sharedPart(next)).length > 0;
      if (share) await link.save(next);
      if (origin !== 'file') await this.writeFile(next, origin === 'shared' || share);
      this.current = next;
    }
    if (paths.length > 0) this.emitChange(next, prev, paths);
    return { config: this.redacted(), restart_required: this.pendingRestart() };
  }

  /**
   * Writes the file. Once the change is stored in the shared document it is committed for every node, this one
   * included: the file is then only this node's last-known copy, and failing to write it is a warning.
   */
  private async writeFile(next: SpoolConfig, committedElsewhere: boolean): Promise<void> {
    try {
      await writeFileAtomic(this.path, renderConfig(next));
    } catch (err) {
      if (!committedElsewhere) throw err;
      this.logger.warn('could not write the local copy of the shared configuration', {
        path: this.path,
        error: (err as Error).message,
      });
    }
  }

  /** A save: one at a time; prepared again on the newer shared document when another node saved first. */
  private saving<T>(task: () => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await task();
        } catch (err) {
          if (!(err instanceof StaleSharedConfig) || attempt >= 3) throw staleAsConflict(err);
          await this.adoptShared();
        }
      }
    });
  }

  private emitChange(next: SpoolConfig, prev: SpoolConfig, paths: string[]): void {
    for (const listener of this.events.listeners('change') as ChangeListener[]) {
      try {
        listener(next, prev, paths);
      } catch (err) {
        // One broken subscriber must not undo a saved change or starve the others.
        this.logger.error('config change listener failed', { error: (err as Error).stack ?? String(err) });
      }
    }
  }

  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** A save that lost to other nodes' saves three times (or a reload racing one): 409, try again. */
function staleAsConflict(err: unknown): unknown {
  if (!(err instanceof StaleSharedConfig)) return err;
  return new AppError(
    'IN_PROGRESS',
    'Another node saved the configuration at the same time; nothing was saved, try again',
  );
}

function summary(errors: FieldError[]): string {
  return errors.map((e) => (e.field ? `${e.field}: ${e.message}` : e.message)).join('; ');
}

/** The validation with an expiry date set in the past refused too (providers.ts `pastExpiryErrors`). */
function withPastExpiry(
  result: ValidationResult,
  prev: SpoolConfig['providers'],
  next: readonly unknown[],
): ValidationResult {
  const past = providerOps.pastExpiryErrors(prev, next, providerOps.localDay(Date.now()));
  if (past.length === 0) return result;
  return { ok: false, errors: [...(result.ok ? [] : result.errors), ...past] };
}
