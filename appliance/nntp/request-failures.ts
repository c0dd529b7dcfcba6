/**
 * The evidence rules of a request (docs/nntp.md, "Fallback", "Retries", "Circuit breaker"): what one failed
 * command teaches the request and its provider, and the request's answer once no provider can take it. An outage
 * is never evidence that an article is missing: only a 430 (or a damaged copy) from every provider that should
 * have it is.
 */
import type { Logger } from '../logging/logger.js';
import {
  ArticleMissingError,
  NoProviderError,
  ProviderCapacityError,
  articleEvidence,
  type NntpError,
} from './errors.js';
import type { PoolStats } from './pool-metrics.js';
import type { PoolTunables } from './pool-options.js';
import { asNntpError, type PoolRequest } from './pool-request.js';
import { reasonOf } from './provider-reason.js';
import type { ProviderState } from './provider-state.js';

/**
 * Records a failed command of `r` on `p`: a 430 or a damaged copy rules the provider out for this request; any
 * other failure is an outage that counts toward the provider's breaker and a try of the request. Returns whether
 * it opened the breaker.
 */
export function recordFailure(
  r: PoolRequest,
  p: ProviderState,
  raw: unknown,
  stats: PoolStats,
  o: Pick<PoolTunables, 'breakerThreshold' | 'breakerCooldownMs'>,
  logger: Logger | undefined,
  now: number,
): boolean {
  const err = asNntpError(raw);
  err.providerId = p.id;
  r.lastError = err;
  if (err instanceof ArticleMissingError) {
    stats.recordMissing(p);
    r.missingOn.add(p.id);
    r.notFoundOn.add(p.id);
    return false;
  }
  // Over the account's connection cap: no fault of the provider nor a try of the request, which goes to the
  // connections that are open (or waits for one the provider allows: provider-capacity.ts). Never evidence either.
  if (err.kind === 'provider_capacity') {
    r.lastOutage = err;
    return false;
  }
  stats.recordError(p);
  if (err.kind === 'corrupt_article') {
    r.missingOn.add(p.id);
    return false;
  }
  if (err.kind !== 'aborted') p.lastReason = reasonOf(err);
  r.lastOutage = err;
  r.failedOn.add(p.id);
  r.attempts++;
  // One auth or TLS failure is enough: every later connection would fail the same way.
  const tripped = p.recordFailure(
    now,
    err.message,
    o.breakerThreshold,
    o.breakerCooldownMs,
    err.kind === 'auth' || err.kind === 'tls',
  );
  if (tripped)
    logger?.warn('provider put aside', { provider: p.id, cooldown_ms: o.breakerCooldownMs, error: err.message });
  return tripped;
}

/** The read's answer when the providers that could have the article are paused by their quota. */
function pausedError(paused: readonly ProviderState[]): NoProviderError {
  const ids = paused.map((p) => p.id).join(', ');
  return new NoProviderError(
    `No provider could serve this article: ${ids} ${paused.length > 1 ? 'are' : 'is'} paused (quota spent)`,
  );
}

/**
 * No provider can take the request now. If one that might serve it is cooling down and comes back within
 * coolingWaitMs of the request starting to wait (and the request has tries left), the request waits until then
 * (`retryAt`, a time of the pool's clock); else this is the error it fails with.
 */
export function waitOrFail(
  r: PoolRequest,
  providers: readonly ProviderState[],
  now: number,
  o: Pick<PoolTunables, 'maxAttempts' | 'coolingWaitMs'>,
): { retryAt: number } | NntpError {
  const cooling = providers.filter((p) => p.cooling(now) && !r.missingOn.has(p.id));
  const last = r.lastError;
  const triesLeft = !last || last instanceof ArticleMissingError || (last.retryable && r.attempts < o.maxAttempts);
  if (cooling.length > 0 && triesLeft) {
    const back = Math.min(...cooling.map((p) => p.backAt(now)));
    r.coolingSince ??= now;
    if (back - r.coolingSince <= o.coolingWaitMs) return { retryAt: back };
  }
  // A 430 (or a damaged copy) is the verdict only when every provider that should have the article gave it;
  // if one could not be asked (refused, timed out, out of tries), the outage is the answer, not "missing".
  // (A provider left unasked without an outage of this request is cooling: the message below says so.)
  const unasked = providers.some((p) => (p.usable(now) || p.cooling(now)) && !r.missingOn.has(p.id));
  if (last && articleEvidence(last) && unasked && r.lastOutage) return r.lastOutage;
  // A provider paused by its quota may have it: a 430 from the others is no verdict then (no repair follows).
  const paused = providers.filter((p) => p.pausedByQuota && !r.missingOn.has(p.id));
  if (paused.length > 0 && (!last || articleEvidence(last)) && cooling.length === 0) return pausedError(paused);
  // The real cause beats a generic "nobody available".
  if (last && !(cooling.length > 0 && articleEvidence(last))) return last;
  if (cooling.length === 0) return new NoProviderError();
  const secs = Math.ceil((Math.min(...cooling.map((p) => p.backAt(now))) - now) / 1000);
  // Set aside by no breaker: each allows no connection now (its account's cap is used up elsewhere).
  if (cooling.every((p) => now >= p.coolingUntil))
    return new ProviderCapacityError(
      `Every provider that could serve this article is at its connection limit (next try in ${secs} s)`,
    );
  return new NoProviderError(`Every provider that could serve this article is cooling down (back in ${secs} s)`);
}
