import type { DiagnosticFinding } from './diagnostics.wire.js';
import { finding } from './finding.js';
import type { ProviderProbe } from './provider-probe.js';

const DAY_MS = 24 * 3600 * 1000;
/** DATE has one-second resolution and a round trip of its own: a drift under this is no drift. */
export const CLOCK_WARN_MS = 30_000;
/** Past this, signed stream links, sessions and TLS validity go wrong. */
export const CLOCK_ERROR_MS = 5 * 60_000;
export const CERT_ERROR_DAYS = 7;
export const CERT_WARN_DAYS = 21;

/** A provider the probe could not reach, in its own words (the other checks of it then say nothing). */
export function reachFinding(p: ProviderProbe): DiagnosticFinding | null {
  if (!p.error) return null;
  return finding(
    'provider_reach',
    'providers',
    'error',
    `Provider ${p.id} (${p.host}) could not be reached for the checks: ${p.error}`,
    'Check the provider in Configuration > Providers (Test connection) and the network between Spool and it.',
  );
}

/** Spool's clock against the provider's DATE. */
export function clockFinding(p: ProviderProbe): DiagnosticFinding | null {
  if (p.error || p.clockOffsetMs === null) return null;
  const off = p.clockOffsetMs;
  const seconds = Math.round(Math.abs(off) / 1000);
  const direction = off > 0 ? 'behind' : 'ahead of';
  const said = `Spool's clock is ${seconds} s ${direction} provider ${p.id} (${p.host}, NNTP DATE)`;
  const fix =
    "Synchronise the host's clock (NTP: timedatectl set-ntp true, or chrony); a container takes the host's clock. " +
    'A wrong clock breaks TLS certificate checks, sign-in sessions and stream links, and article retention dates.';
  if (Math.abs(off) >= CLOCK_ERROR_MS) return finding('clock', 'providers', 'error', `${said}.`, fix);
  if (Math.abs(off) >= CLOCK_WARN_MS) return finding('clock', 'providers', 'warning', `${said}.`, fix);
  return finding('clock', 'providers', 'info', `Spool's clock agrees with provider ${p.id} within ${seconds} s.`);
}

/** The provider's TLS certificate against its end of validity. */
export function certificateFinding(p: ProviderProbe, now: number): DiagnosticFinding | null {
  if (p.error || !p.certificate) return null;
  const { validTo, subject, issuer } = p.certificate;
  const days = (validTo - now) / DAY_MS;
  const when = new Date(validTo).toISOString().slice(0, 10);
  const named = `The TLS certificate of provider ${p.id} (${p.host}, ${subject || 'no CN'}, issued by ${issuer || 'unknown'})`;
  const fix =
    'Tell the provider: its certificate must be renewed before it expires, or every connection will fail its TLS ' +
    'check. If it is your own relay or private CA, renew the certificate there.';
  if (days <= 0) return finding('tls_expiry', 'providers', 'error', `${named} expired on ${when}.`, fix);
  const left = days < 1 ? 'less than a day' : `${Math.floor(days)} day${Math.floor(days) === 1 ? '' : 's'}`;
  if (days < CERT_ERROR_DAYS)
    return finding('tls_expiry', 'providers', 'error', `${named} expires in ${left} (${when}).`, fix);
  if (days < CERT_WARN_DAYS)
    return finding('tls_expiry', 'providers', 'warning', `${named} expires in ${left} (${when}).`, fix);
  return finding('tls_expiry', 'providers', 'info', `${named} is valid until ${when}.`);
}
