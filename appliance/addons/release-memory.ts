/**
 * Gives memory back to the system after a large job (docs/performance.md "Memory after many small imports").
 *
 * An import of many files allocates far more than it keeps: NZB text, parsed segments, decoded first articles,
 * layouts before they are packed. Two things keep that memory in the process once the job is done: V8 starts no
 * collection while the process is idle (no allocation asks for one), so buffers the job dropped stay allocated;
 * and what V8 does free goes back to glibc's arenas, which keep freed pages mapped (fragmented, they are not
 * trimmed on their own). Measured on a 20,000-file import: RSS ~540 MiB at idle with a live V8 heap of 28 MiB.
 *
 * `releaseMemory()` asks for both, through our own addon (appliance/addons/native, spool_memory.node): a full
 * V8 collection (Isolate::LowMemoryNotification) and then glibc's `malloc_trim(0)`. A third part of RSS after a
 * large import is file-backed: the pages of LMDB's data file the import read through its memory map (~170 MiB
 * after 100,000 files). They belong to the kernel's page cache, which keeps them whatever the process does; the
 * process stops mapping them (`mappedFiles`: madvise MADV_DONTNEED on shared mappings of those files only), and a
 * later read maps them again from the cache, as after a restart. It blocks the event loop for
 * the collection (tens of ms with a heap of ~100 MB), so it runs once after a burst of work (the import runner
 * calls it when its queue has been idle for a moment), never per request. Without the addon (not built, or not
 * glibc) it does nothing and says why once (`releaseUnavailable`).
 */
import { nativeAddon } from './native-addon.js';

interface SpoolMemoryAddon {
  /** A full, compacting V8 collection. */
  collect(): void;
  /** malloc_trim(0): 1 when glibc gave memory back, else 0. */
  trim(): number;
  /** madvise(MADV_DONTNEED) on the shared mappings of `path`: the bytes advised, or -errno. */
  dropFileMappings(path: string): number;
}

const loaded = nativeAddon<SpoolMemoryAddon>(['collect', 'trim', 'dropFileMappings']);

/** Why memory is not given back after large jobs ('' when the addon is loaded): logged once at startup. */
export const releaseUnavailable = typeof loaded === 'string' ? loaded : '';

export interface Released {
  /** Resident memory before and after, in bytes (process.memoryUsage().rss). */
  rssBefore: number;
  rssAfter: number;
  ms: number;
}

/** Collects, trims and unmaps the pages of `mappedFiles` the process holds; null without the addon. */
export function releaseMemory(mappedFiles: readonly string[] = []): Released | null {
  if (typeof loaded === 'string') return null;
  const started = performance.now();
  const rssBefore = process.memoryUsage.rss();
  loaded.collect();
  loaded.trim();
  for (const file of mappedFiles) loaded.dropFileMappings(file);
  return { rssBefore, rssAfter: process.memoryUsage.rss(), ms: performance.now() - started };
}
