/**
 * A provider's connections over their life in the pool: opened with the provider's current settings (counted
 * against max_connections while they open, resuming its last TLS session), and closed once idle when they
 * should take no more work.
 */
import { NntpConnection } from './connection.js';
import { withProviderCa } from './tls-ca.js';
import type { PoolStats } from './pool-metrics.js';
import type { PoolOptions, PoolTunables } from './pool-options.js';
import type { PooledConnection, ProviderState } from './provider-state.js';

/** What every connection of the pool is opened with, whatever the provider. */
export type ConnectionSettings = Pick<PoolTunables, 'connectTimeoutMs' | 'stallTimeoutMs' | 'idleTimeoutMs'> &
  Pick<PoolOptions, 'tlsCa' | 'limits' | 'backend'>;

/**
 * Opens one connection of `p` and adds it to the provider once ready. `onClosed` runs after a closed connection
 * left the provider (the pool then forgets a drained provider and places what waits).
 */
export function openPooledConnection(
  p: ProviderState,
  settings: ConnectionSettings,
  stats: Pick<PoolStats, 'addBytes'>,
  onClosed: () => void,
): Promise<PooledConnection> {
  p.opening++;
  const cfg = p.config;
  // Settings may change while it opens: a connection of an older generation neither offers nor keeps a session.
  const generation = p.generation;
  return NntpConnection.open({
    host: cfg.host,
    port: cfg.port,
    tls: cfg.tls,
    insecureTls: cfg.insecure_tls,
    tlsCa: withProviderCa(settings.tlsCa, cfg.ca),
    username: cfg.username,
    password: cfg.password,
    connectTimeoutMs: settings.connectTimeoutMs,
    stallTimeoutMs: settings.stallTimeoutMs,
    idleTimeoutMs: settings.idleTimeoutMs,
    limits: settings.limits,
    backend: settings.backend,
    onBytes: (n) => {
      stats.addBytes(p, n);
      p.link.addBytes(n);
    },
    onRtt: (ms) => p.recordRtt(ms),
    onTransfer: (bytes, ms) => p.link.recordTransfer(bytes, ms),
    tlsSession: cfg.tls && generation === p.generation ? p.tlsSession : undefined,
    onTlsSession: (session) => {
      if (generation === p.generation) p.tlsSession = session;
    },
  }).then(
    (conn) => {
      p.opening--;
      const pc: PooledConnection = { conn, generation, lastWorkAt: performance.now(), downs: p.downs };
      p.connections.add(pc);
      conn.onClose = () => {
        p.connections.delete(pc);
        onClosed();
      };
      return pc;
    },
    (err: unknown) => {
      p.opening--;
      throw err;
    },
  );
}

/**
 * Closes `pc` once idle if it should take no more work: opened with older settings, its provider removed,
 * disabled or held (NntpPool.holdConnections), or the provider over a lowered max_connections. Nothing in flight
 * is cut. Until its socket has closed it counts in `p.closing`.
 */
export function retireIfIdle(p: ProviderState, pc: PooledConnection): void {
  if (pc.conn.inflight > 0 || pc.conn.isClosed) return;
  const stale = pc.generation !== p.generation || p.removed || !p.config.enabled || p.held > 0;
  if (stale || p.connections.size > p.config.max_connections) {
    p.connections.delete(pc);
    p.closing++;
    void pc.conn.quit().finally(() => p.closing--);
  }
}
