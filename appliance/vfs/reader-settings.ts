import type { ConfigService } from '../config/index.js';
import type { ReaderSettings } from './reader.js';

/** Reader settings from docs/console-contract.md §3 streaming config, read live so a PATCH applies to the next read. */
export function readerSettings(config: ConfigService): ReaderSettings {
  const s = config.get().streaming;
  return {
    cacheBytes: s.max_cache_size_mb * 1024 * 1024,
    workersPerStream: s.max_download_workers,
    zeroFill: {
      enabled: s.zero_fill_enabled,
      // A "tiny hole" is one article of normal size at most; the count and share come from config.
      maxHoleBytes: 1024 * 1024,
      maxHolesPerFile: s.zero_fill_max_articles,
      maxFileShare: s.zero_fill_max_percent / 100,
    },
  };
}
