import type { RestoreCheck } from './backup.wire.js';

/** One file of the restored library, its articles' message ids read only when it is sampled. */
export interface LibraryFile {
  path: string;
  articles: () => readonly string[];
}

export interface RestoreCheckDeps {
  /** Every file of the restored library. */
  files: () => Iterable<LibraryFile>;
  /** STATs through the pool: true (a provider has it), false (430 from every provider that should), an error (no verdict). */
  stat: (ids: readonly string[], signal: AbortSignal) => Promise<ReadonlyArray<boolean | Error>>;
  /** Takes STATs from the health budget, waiting for them (health.budget.ts). */
  spend: (n: number, signal: AbortSignal) => Promise<void>;
  /** Whether any provider is configured and enabled (none: the pass is skipped, not failed). */
  hasProviders: () => boolean;
  random?: () => number;
}

export interface RestoreCheckOptions {
  /** Files sampled (uniformly, over the whole library). */
  files: number;
  /** Articles asked per file: the first, the last and evenly between. */
  articlesPerFile: number;
}

export const RESTORE_CHECK_DEFAULTS: RestoreCheckOptions = { files: 200, articlesPerFile: 3 };

/**
 * After a restore (docs/backups.md "After a restore"): a sampled STAT pass over the restored library on the health
 * budget, naming the files whose articles the providers no longer have. Only a 430 from every provider that should
 * have the article counts; an outage or a timeout is counted as inconclusive, never as missing.
 */
export async function checkRestoredLibrary(
  deps: RestoreCheckDeps,
  opts: RestoreCheckOptions,
  signal: AbortSignal,
): Promise<RestoreCheck> {
  const result: RestoreCheck = {
    state: 'done',
    files_sampled: 0,
    articles_checked: 0,
    missing_files: [],
    inconclusive: 0,
    note: null,
  };
  if (!deps.hasProviders()) return { ...result, state: 'skipped', note: 'no provider is configured' };
  for (const file of sample(deps.files(), opts.files, deps.random ?? Math.random)) {
    const ids = spread(file.articles(), opts.articlesPerFile);
    if (ids.length === 0) continue;
    await deps.spend(ids.length, signal);
    const answers = await deps.stat(ids, signal);
    result.files_sampled++;
    result.articles_checked += ids.length;
    if (answers.some((a) => a === false)) result.missing_files.push(file.path);
    result.inconclusive += answers.filter((a) => a instanceof Error).length;
  }
  return result;
}

/** Up to `n` items chosen uniformly from `items` (reservoir sampling: one pass, `n` kept). */
function sample<T>(items: Iterable<T>, n: number, random: () => number): T[] {
  const kept: T[] = [];
  let seen = 0;
  for (const item of items) {
    seen++;
    if (kept.length < n) kept.push(item);
    else {
      const at = Math.floor(random() * seen);
      if (at < n) kept[at] = item;
    }
  }
  return kept;
}

/** `n` ids spread over the list: the first, the last and evenly between (each once). */
function spread(ids: readonly string[], n: number): string[] {
  if (ids.length <= n) return [...new Set(ids)];
  const picked = new Set<string>();
  for (let i = 0; i < n; i++) picked.add(ids[Math.round((i * (ids.length - 1)) / (n - 1))]!);
  return [...picked];
}
