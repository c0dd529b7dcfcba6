import type { SampledShare } from '../../../../../../appliance/providers/fit.wire';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** A sampled share as the fit report prints it: the share, its 95% interval and the sample; a dash with none. */
export function shareText(s: SampledShare): string {
  if (s.share === null || s.interval === null) return '—';
  return `${pct(s.share)} (${pct(s.interval[0])}–${pct(s.interval[1])}, n=${s.n})`;
}

/** A money amount with two decimals; a dash when unknown. */
export function moneyText(x: number | null, digits = 2): string {
  return x === null ? '—' : x.toFixed(digits);
}

/** Bytes as decimal GB (providers sell 10^9 bytes). */
export function gbText(bytes: number): string {
  return `${(bytes / 1e9).toFixed(2)} GB`;
}
