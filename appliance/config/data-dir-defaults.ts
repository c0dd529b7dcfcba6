import path from 'node:path';
import { DEFAULTS, deepFreeze } from './defaults.js';
import type { SpoolConfig } from './schema.js';

/**
 * The defaults with paths placed under the given data dir (absolute). Kept apart from defaults.ts because it needs
 * node:path, and defaults.ts is also bundled into the console.
 */
export function defaultsFor(dataDir: string): SpoolConfig {
  const dir = path.resolve(dataDir);
  const copy = structuredClone(DEFAULTS) as SpoolConfig;
  copy.metadata.root_path = path.join(dir, 'metadata');
  copy.rclone.cache_dir = path.join(dir, 'rclone-cache');
  copy.import.scan_roots = [path.join(dir, 'nzb')];
  copy.import.import_dir = path.join(dir, 'downloads');
  return deepFreeze(copy);
}
