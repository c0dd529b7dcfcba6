/**
 * Why a provider is not serving (docs/nntp.md, "Provider states"): read from the failure it gave, so a wrong
 * password never reads as a connection cap, nor a cap as a wrong password. The code alone does not decide: 481
 * is "bad password" for most servers and "too many connections" for some, so the text settles it (errors.ts
 * `capacityRefusal` has already turned cap texts into `provider_capacity`).
 */
import { NntpError } from './errors.js';
import type { ProviderReason } from './provider-state.wire.js';

/** What providers say when an account's bytes are spent (block accounts, daily caps). */
const QUOTA_TEXT = /quota|data (limit|cap)|download limit|volume (limit|exceeded)|(bytes|traffic|gb) (limit|exceeded)/i;
/** What they say when they slow a client down. */
const THROTTLE_TEXT = /throttl|rate.?limit|slow down|too many requests/i;

export function reasonOf(err: unknown): ProviderReason {
  if (!(err instanceof NntpError)) return 'unreachable';
  if (err.kind === 'provider_capacity') return 'connection_limit';
  if (QUOTA_TEXT.test(err.message)) return 'quota_spent';
  if (THROTTLE_TEXT.test(err.message)) return 'throttled';
  if (err.kind === 'auth') return 'auth_failed';
  return 'unreachable';
}
