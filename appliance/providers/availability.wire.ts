/**
 * Availability from real traffic (docs/providers.md, "Availability"): per provider, the share of the articles asked
 * of it that it had, by the article's post age, over the last 7 and 30 days. Shared with the console.
 */

/** Post-age bands: 0-30 days, 1-12 months, 1-3 years, over 3 years; `unknown` when the request named no post date. */
export const AGE_BANDS = ['0-30d', '1-12m', '1-3y', '3y+', 'unknown'] as const;
export type AgeBand = (typeof AGE_BANDS)[number];

/** The windows the share is given over, in UTC days (today included). */
export const AVAILABILITY_WINDOWS = [7, 30] as const;
export type AvailabilityWindow = (typeof AVAILABILITY_WINDOWS)[number];

/** Evidence counts: `had` a BODY answered with the article (or STAT 223), `missing` a 430. */
export interface AvailabilityCounts {
  had: number;
  missing: number;
}

/** One provider, one post-age band, one window: the counts and `share` = had / (had + missing), null when none. */
export interface AvailabilityCell extends AvailabilityCounts {
  share: number | null;
}

/** One provider's availability: per window (`"7"`, `"30"`) per post-age band. */
export interface ProviderAvailabilityView {
  provider: string;
  windows: Record<`${AvailabilityWindow}`, Record<AgeBand, AvailabilityCell>>;
}

/** GET /api/providers/availability. */
export interface AvailabilityResponse {
  providers: ProviderAvailabilityView[];
}
