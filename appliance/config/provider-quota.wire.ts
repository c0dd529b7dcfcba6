/**
 * The quota and expiry keys of a provider entry (docs/configuration.md "providers", docs/nntp.md "Quotas and
 * expiry"), shared by the config schema, the quota meter and the console. A wire file: constants only.
 */

/** `none`: no quota. `daily`, `weekly`, `monthly`: bytes per period from its reset. `lifetime`: a block account. */
export const QUOTA_PERIODS = ['none', 'daily', 'weekly', 'monthly', 'lifetime'] as const;
export type QuotaPeriod = (typeof QUOTA_PERIODS)[number];

/** A calendar date, `YYYY-MM-DD` (checked for being a real date by the rules). */
export const EXPIRY_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The shares of a quota that are told (notices), the last one pausing the provider. */
export const QUOTA_THRESHOLDS = [80, 95, 100] as const;
export type QuotaThreshold = (typeof QUOTA_THRESHOLDS)[number];

/** Days before the expiry date that the notice goes out. */
export const EXPIRY_NOTICE_DAYS = 7;
