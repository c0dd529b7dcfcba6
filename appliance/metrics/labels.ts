/**
 * The label values of Spool's metrics: every one comes from a short fixed list or from the config (provider ids),
 * never from a file path, a client address or a message id, so the number of series stays bounded
 * (docs/metrics.md, "Labels").
 */

/** The ways a file is read. */
export const FRONTS = ['webdav', 'fuse'] as const;
export type Front = (typeof FRONTS)[number];

/**
 * Who reads, by the class the Streams view gives it (appliance/streams/reader-class.ts); `unknown` when it has none
 * (a stream it never saw), and for any value outside this list.
 */
export const READER_CLASSES = ['player', 'scanner', 'unknown'] as const;
export type ReaderClass = (typeof READER_CLASSES)[number];

export const STREAM_OUTCOMES = ['done', 'aborted', 'error'] as const;
export const ARTICLE_OUTCOMES = ['ok', 'missing', 'damaged', 'error'] as const;
export const IMPORT_OUTCOMES = ['completed', 'failed', 'retrying'] as const;
/** A check's verdict, `inconclusive` when the providers could not answer (never evidence), or `cancelled`. */
export const CHECK_OUTCOMES = ['healthy', 'partial', 'corrupted', 'inconclusive', 'cancelled'] as const;
/** The arr took the repair, it failed and will be tried again, or it failed for good (no arr manages the file, ...). */
export const REPAIR_OUTCOMES = ['triggered', 'retrying', 'failed'] as const;
export const PROVIDER_STATES = ['usable', 'cooling_down', 'paused', 'disabled'] as const;
export type ProviderStateLabel = (typeof PROVIDER_STATES)[number];

/** `value` when it is one of `allowed`, else `fallback`: a label never takes a value from outside its list. */
export function bounded<T extends string>(allowed: readonly T[], value: unknown, fallback: T): T {
  return (allowed as readonly unknown[]).includes(value) ? (value as T) : fallback;
}
