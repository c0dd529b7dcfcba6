/** Numeric inputs of spec §5: invalid text falls back to a fixed value; ranges are checked before saving. */
export interface NumberRule {
  min: number;
  max: number;
  fallback: number;
}

export const NUMBER_RULES = {
  'webdav.port': { min: 1, max: 65535, fallback: 0 },
  'streaming.max_cache_size_mb': { min: 1, max: 1024, fallback: 1 },
  'streaming.max_download_workers': { min: 1, max: 50, fallback: 1 },
  'import.max_processor_workers': { min: 1, max: 20, fallback: 1 },
  'import.queue_processing_interval_seconds': { min: 1, max: 300, fallback: 5 },
  'health.max_concurrent_jobs': { min: 1, max: 10, fallback: 1 },
  'health.max_retries': { min: 0, max: 5, fallback: 0 },
  'health.check_interval_seconds': { min: 5, max: 86400, fallback: 5 },
} as const satisfies Record<string, NumberRule>;

export type NumberField = keyof typeof NUMBER_RULES;

/** parseInt semantics: '12abc' reads 12, '' or 'abc' read as the fallback. */
export function parseWithFallback(text: string, rule: NumberRule): number {
  const value = Number.parseInt(text, 10);
  return Number.isFinite(value) ? value : rule.fallback;
}

export function rangeError(value: number, rule: NumberRule): string | undefined {
  if (!Number.isInteger(value) || value < rule.min || value > rule.max) {
    return `Must be a whole number from ${rule.min} to ${rule.max}`;
  }
  return undefined;
}
