/**
 * Which providers a request may ask, and in which tier (docs/nntp.md, "Routing"): retention by the post date the
 * NZB carries ("last" or "never" past it), backbone groups (a 430 from one member answers for the others), block
 * accounts only after every primary missed, and "required" providers whose absence holds the request back rather
 * than spilling it to a block account.
 */
import { backboneOfHost } from './backbones.js';
import type { PoolRequest } from './pool-request.js';
import type { ProviderState } from './provider-state.js';

const DAY_MS = 86_400_000;

/** The provider's backbone group: its own setting, else the shipped table's entry for its host. */
export const backboneOf = (p: ProviderState): string | undefined => p.config.backbone || backboneOfHost(p.config.host);

/** The article is older than the provider keeps (unknown when the request carries no post date). */
function pastRetention(p: ProviderState, r: PoolRequest, now: number): boolean {
  const days = p.config.retention_days;
  if (!days || r.postedAt === undefined) return false;
  return now - r.postedAt > days * DAY_MS;
}

/** The providers that may be asked at all: those past their retention with "never" are left out. */
export function eligibleFor(r: PoolRequest, providers: readonly ProviderState[], now: number): ProviderState[] {
  return providers.filter((p) => !(pastRetention(p, r, now) && p.config.retention_policy === 'never'));
}

/**
 * Order of asking, lowest first: a primary, a backup, any provider past its retention ("last"), a block account
 * (past its retention: later still).
 */
export function tierOf(p: ProviderState, r: PoolRequest, now: number): number {
  const old = pastRetention(p, r, now);
  if (p.config.block_account) return old ? 4 : 3;
  if (old) return 2;
  return p.config.is_backup_provider ? 1 : 0;
}

/** A 430 from one member of a backbone: every member of it has answered for this request. */
export function spreadMissing(r: PoolRequest, providers: readonly ProviderState[]): void {
  if (r.notFoundOn.size === 0) return;
  const groups = new Set<string>();
  for (const p of providers) {
    const b = r.notFoundOn.has(p.id) ? backboneOf(p) : undefined;
    if (b) groups.add(b);
  }
  if (groups.size === 0) return;
  for (const p of providers) {
    const b = backboneOf(p);
    if (b && groups.has(b)) r.missingOn.add(p.id);
  }
}

/**
 * Whether the block accounts may be asked now: no primary (a provider that is not a block account) that could
 * still have the article is left. One that is up and has not failed this request could; a required one could
 * as long as it has not answered 430, even while it is down (the request then waits for it or fails with the
 * outage, never spilling to a block account).
 */
export function blockAllowed(r: PoolRequest, eligible: readonly ProviderState[], now: number): boolean {
  return !eligible.some(
    (p) =>
      !p.config.block_account &&
      p.config.enabled &&
      !p.removed &&
      !r.missingOn.has(p.id) &&
      (p.config.required === true || (p.usable(now) && !r.failedOn.has(p.id))),
  );
}
