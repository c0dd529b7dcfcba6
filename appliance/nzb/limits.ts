/**
 * Bounds on what one NZB may contain. The defaults comfortably hold the biggest real releases (a 100 GB remux is
 * ~140,000 articles, ~15 MB of XML) while keeping a hostile file from costing more than a bounded amount of memory.
 */
export interface NzbLimits {
  /** Total document size in bytes (the upload route also caps at 100 MB). */
  maxBytes: number;
  /** Element nesting depth; a real NZB nests 4 deep (nzb > file > segments > segment). */
  maxDepth: number;
  /** Elements in the whole document. */
  maxElements: number;
  maxFiles: number;
  maxSegmentsPerFile: number;
  /** Segments summed over all files. */
  maxTotalSegments: number;
  /** Length of one attribute value, in characters. */
  maxAttributeLength: number;
  /** Length of one text node (a message-id, a group, a meta value), in characters. */
  maxTextLength: number;
  /** Attributes on one element. */
  maxAttributes: number;
}

export const DEFAULT_NZB_LIMITS: Readonly<NzbLimits> = Object.freeze({
  maxBytes: 100 * 1024 * 1024,
  maxDepth: 16,
  maxElements: 4_000_000,
  maxFiles: 20_000,
  maxSegmentsPerFile: 1_000_000,
  maxTotalSegments: 2_000_000,
  maxAttributeLength: 4096,
  maxTextLength: 4096,
  maxAttributes: 32,
});

export function resolveLimits(overrides?: Partial<NzbLimits>): NzbLimits {
  return { ...DEFAULT_NZB_LIMITS, ...overrides };
}
