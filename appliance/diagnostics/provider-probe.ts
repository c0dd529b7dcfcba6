import type { Clock } from '../clock/clock.js';
import { NntpConnection, type ProviderConfig } from '../nntp/index.js';

/** What one short connection to a provider learned: its clock against ours, its certificate, or why it failed. */
export interface ProviderProbe {
  id: string;
  host: string;
  /** Provider's clock minus Spool's (ms), from DATE; null when it did not answer DATE. */
  clockOffsetMs: number | null;
  /** The certificate's end of validity (ms since the epoch), on TLS only. */
  certificate: { validTo: number; subject: string; issuer: string } | null;
  /** Why the probe failed (connect, TLS or login), in the connection's words. */
  error: string | null;
}

export interface ProbeOptions {
  clock: Pick<Clock, 'now'>;
  timeoutMs?: number;
  /** Extra CAs trusted besides the system's (tests' private CAs); each provider's own `ca` is added to it. */
  tlsCa?: string;
}

/**
 * Connects once to the provider (outside the pool: a diagnostic must not wait behind players), asks DATE and reads
 * the certificate. DATE (RFC 3977 §7.1) answers `111 yyyymmddhhmmss` in UTC with one-second resolution; the
 * offset is taken against the middle of the round trip.
 */
export async function probeProvider(p: ProviderConfig, opts: ProbeOptions): Promise<ProviderProbe> {
  const base = { id: p.id, host: `${p.host}:${p.port}` };
  const timeoutMs = opts.timeoutMs ?? 10_000;
  let conn: NntpConnection;
  try {
    conn = await NntpConnection.open({
      host: p.host,
      port: p.port,
      tls: p.tls,
      insecureTls: p.insecure_tls,
      tlsCa: [opts.tlsCa, p.ca].filter((c): c is string => !!c),
      username: p.username,
      password: p.password,
      connectTimeoutMs: timeoutMs,
      stallTimeoutMs: timeoutMs,
    });
  } catch (err) {
    return { ...base, clockOffsetMs: null, certificate: null, error: (err as Error).message };
  }
  try {
    const certificate = conn.peerCertificate ?? null;
    const sent = opts.clock.now();
    const answer = await conn.date().catch(() => null);
    const received = opts.clock.now();
    const server = answer === null ? null : parseNntpDate(answer);
    const clockOffsetMs = server === null ? null : server - (sent + received) / 2;
    return { ...base, clockOffsetMs, certificate, error: null };
  } finally {
    await conn.quit();
  }
}

/** `yyyymmddhhmmss` (UTC) to ms since the epoch; null when it is not that. */
export function parseNntpDate(s: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(s.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, se] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  return Date.UTC(y, mo - 1, d, h, mi, se);
}
