/** Numeric inputs of docs/console-contract.md §5: invalid text falls back to a fixed value; ranges are checked before saving. */
import { NUMERIC_FALLBACKS, type NumericField } from './serverConfig';

/** One number field's range and fallback; the table is the server's, keyed by config path. */
export type NumberRule = NumericField;
export const NUMBER_RULES = NUMERIC_FALLBACKS;

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
