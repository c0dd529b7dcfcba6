/** A share estimated from a sample, with the 95% interval the fit report prints beside it. */
export interface SampledShare {
  /** Sampled articles that counted (evidence only). */
  n: number;
  /** Of those, the ones the candidate had. */
  hits: number;
  /** hits / n; null when n is 0. */
  share: number | null;
  /** The 95% Wilson score interval [low, high]; null when n is 0. */
  interval: [number, number] | null;
}

const Z95 = 1.959963984540054;

/**
 * The share of a sample and its 95% Wilson score interval (Wilson 1927; it stays inside [0, 1] and is sound for
 * small samples and shares near 0 or 1, where the normal approximation is not).
 */
export function sampledShare(hits: number, n: number): SampledShare {
  if (!Number.isInteger(n) || !Number.isInteger(hits) || n < 0 || hits < 0 || hits > n)
    throw new RangeError(`a sample of ${n} with ${hits} hits is not a sample`);
  if (n === 0) return { n, hits, share: null, interval: null };
  const p = hits / n;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { n, hits, share: p, interval: [Math.max(0, centre - half), Math.min(1, centre + half)] };
}
