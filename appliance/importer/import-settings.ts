import type { ConfigService } from '../config/index.js';
import { safeSegment, type ImportSettings } from './nzb-import.service.js';

/** Live import settings: a PATCH to the sample percentage or the categories applies to the next import. */
export function importSettings(config: ConfigService): ImportSettings {
  const c = config.get();
  return {
    samplePercentage: c.import.segment_sample_percentage,
    showArchiveVolumes: c.import.show_archive_volumes,
    verifyMediaHeaders: c.import.verify_media_headers,
    archivePasswords: c.import.archive_passwords,
    categoryDir: (category) => categoryDir(c.sabnzbd.categories, category),
    fileFilters: {
      allowedExtensions: c.import.allowed_file_extensions,
      filterSamples: c.import.filter_sample_files,
    },
  };
}

/**
 * The directory of a category under the complete dir: the configured category's `dir` (or its name), matched
 * case-insensitively; an unknown category gets a directory of its own name (SABnzbd does the same). Without a
 * category, a configured 'default' or '*' category, else 'default' (docs/import.md: uploads and scans go there).
 */
export function categoryDir(categories: readonly { name: string; dir?: string }[], category: string | null): string {
  const wanted = category?.trim() || null;
  const lookup = (name: string) => categories.find((c) => c.name.toLowerCase() === name.toLowerCase());
  const match = wanted ? lookup(wanted) : (lookup('default') ?? lookup('*'));
  const dir = match?.dir?.trim() || (match && match.name !== '*' ? match.name : undefined) || wanted || 'default';
  return safeSegment(dir.replace(/\//g, '_'), 'default');
}
