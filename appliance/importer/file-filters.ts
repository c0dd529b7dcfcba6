import { classifyName, extensionOf, parseSplitName } from '../nzb/index.js';

/** import.allowed_file_extensions and import.filter_sample_files, read live for each import. */
export interface FileFilterSettings {
  /** Extensions a job file may have ('.mkv' or 'mkv', any case); empty = every extension. */
  allowedExtensions: readonly string[];
  /** Leave out sample clips: a file named as a sample that is not the release's largest file. */
  filterSamples: boolean;
}

export interface FilteredFiles<T> {
  kept: T[];
  dropped: { name: string; why: 'extension' | 'sample' }[];
}

/** `sample` as a word of its own: `x.sample.mkv`, `Sample-x.mkv`, `x-sample.mkv`, `x (Sample).mkv`. */
const SAMPLE_WORD = /(^|[\s._\-[(])sample([\s._\-\])]|$)/i;

/**
 * Which files a job exposes (posted files before the probe, then the files archives hold). Archive volumes pass
 * the extension rule: what they hold is the content, and the rule is applied to that. A sample is never the
 * largest file, so a release called `Sample.Movie` still keeps its movie.
 */
export function filterJobFiles<T extends { name: string }>(
  files: readonly T[],
  settings: FileFilterSettings,
  sizeOf: (file: T) => number,
  /** Archive volumes by content (obfuscated volumes have no telling name); by name when not given. */
  isVolume: (file: T) => boolean = (f) => classifyName(f.name) === 'archive',
): FilteredFiles<T> {
  const allowed = new Set(settings.allowedExtensions.map((e) => e.trim().replace(/^\./, '').toLowerCase()));
  const dropped: FilteredFiles<T>['dropped'] = [];
  const byExtension = files.filter((f) => {
    // A piece of a split set left unjoined (`x.mkv.003` of a set missing a piece) counts as what it is part of.
    const ext = extensionOf(parseSplitName(f.name)?.base ?? f.name);
    const ok = allowed.size === 0 || isVolume(f) || allowed.has(ext);
    if (!ok) dropped.push({ name: f.name, why: 'extension' });
    return ok;
  });
  if (!settings.filterSamples) return { kept: byExtension, dropped };
  const largest = byExtension.reduce<T | undefined>((a, f) => (!a || sizeOf(f) > sizeOf(a) ? f : a), undefined);
  const kept = byExtension.filter((f) => {
    const sample = f !== largest && SAMPLE_WORD.test(f.name.replace(/\.[^.]*$/, ''));
    if (sample) dropped.push({ name: f.name, why: 'sample' });
    return !sample;
  });
  return { kept, dropped };
}
