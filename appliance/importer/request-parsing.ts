import { validationFailed } from '../errors/field-errors.js';
import type { QueuePriority } from './queue.wire.js';

const NAMED: Record<string, QueuePriority> = { low: -1, normal: 0, high: 1, force: 2 };

/**
 * A priority as the console (-1, 0, 1) or SABnzbd clients send it (-100 default, -2 paused, -1 low, 0 normal,
 * 1 high, 2 force, or those names). Paused has no meaning here (imports take seconds), so it runs as low.
 */
export function parsePriority(raw: string | null | undefined): QueuePriority {
  if (raw === null || raw === undefined || raw.trim() === '') return 0;
  const text = raw.trim().toLowerCase();
  if (text in NAMED) return NAMED[text]!;
  const n = Number(text);
  if (n === -100) return 0;
  if (n === -2) return -1;
  if (n === -1 || n === 0 || n === 1 || n === 2) return n;
  throw validationFailed([
    { field: 'priority', message: 'priority must be -1 (low), 0 (normal), 1 (high) or 2 (force)' },
  ]);
}

export function parseCategory(raw: string | null | undefined): string | null {
  const text = raw?.trim() ?? '';
  if (text === '' || text === '*') return null;
  if (text.length > 255)
    throw validationFailed([{ field: 'category', message: 'category is longer than 255 characters' }]);
  return text;
}

/** An ISO time (or epoch milliseconds) from a query parameter; undefined when absent. */
export function parseTime(raw: string | null, field: string): number | undefined {
  if (raw === null || raw.trim() === '') return undefined;
  const text = raw.trim();
  const ms = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(ms)) throw validationFailed([{ field, message: `${field} must be an ISO 8601 time` }]);
  return ms;
}
