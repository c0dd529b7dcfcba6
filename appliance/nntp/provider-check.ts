/** The provider form's connection test: connect, read the greeting, authenticate, QUIT. */
import { NntpConnection } from './connection.js';
import { NntpError } from './errors.js';
import type { ProviderTestResult } from './provider-check.wire.js';
import { withProviderCa } from './tls-ca.js';
import type { ProviderConfig } from './types.js';

export type ProviderCheckInput = Pick<
  ProviderConfig,
  'host' | 'port' | 'username' | 'password' | 'tls' | 'insecure_tls' | 'ca'
>;

/** POST /api/providers/test's answer (provider-check.wire.ts). */
export type ProviderCheckResult = ProviderTestResult;

export interface ProviderCheckOptions {
  timeoutMs?: number;
  /** Extra certificate authorities (PEM) trusted besides the system store. */
  tlsCa?: string | Buffer | Array<string | Buffer>;
}

/** `options` may be a bare timeout in ms (the original signature). */
export async function checkProvider(
  cfg: ProviderCheckInput,
  options: number | ProviderCheckOptions = {},
): Promise<ProviderCheckResult> {
  const { timeoutMs = 10_000, tlsCa } = typeof options === 'number' ? { timeoutMs: options } : options;
  try {
    const conn = await NntpConnection.open({
      host: cfg.host,
      port: cfg.port,
      tls: cfg.tls,
      insecureTls: cfg.insecure_tls,
      tlsCa: withProviderCa(tlsCa, cfg.ca),
      username: cfg.username,
      password: cfg.password,
      connectTimeoutMs: timeoutMs,
      stallTimeoutMs: timeoutMs,
    });
    await conn.quit();
    return { success: true };
  } catch (err) {
    return { success: false, error_message: describe(err, cfg) };
  }
}

function describe(err: unknown, cfg: ProviderCheckInput): string {
  const where = `${cfg.host}:${cfg.port}`;
  const msg = err instanceof Error ? err.message : String(err);
  if (err instanceof NntpError) {
    if (err.kind === 'auth') return `Authentication failed (${err.status ?? 'no status'}): check username and password`;
    if (err.kind === 'timeout') return `Timed out connecting to ${where}`;
    if (err.kind === 'provider_refused') return `${where} refused the connection: ${msg}`;
    if (err.kind === 'provider_capacity')
      return `${where} is at the account's connection limit (other apps may be using it): ${msg}`;
    if (err.kind === 'tls') return msg;
  }
  if (/ECONNREFUSED/.test(msg)) return `Connection refused by ${where}`;
  if (/ENOTFOUND|EAI_AGAIN/.test(msg)) return `Host not found: ${cfg.host}`;
  if (/certificate|self[- ]signed|SSL|TLS|wrong version/i.test(msg)) {
    return `TLS handshake with ${where} failed: ${msg}${cfg.tls && !cfg.insecure_tls ? ' (a private chain needs its CA certificate; Insecure TLS skips certificate checks)' : ''}`;
  }
  return `Connection to ${where} failed: ${msg}`;
}
