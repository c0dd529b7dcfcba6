/**
 * Pool-level keepalive: a DATE on every connection that has been silent for keepaliveMs, so providers that drop
 * idle connections (often after 60-120 s) do not take away warm connections a stream will want; and the other
 * half of the bargain, closing connections that carried no real work for maxIdleMs.
 */
import type { ProviderState } from './provider-state.js';

export interface KeepaliveOptions {
  keepaliveMs: number;
  maxIdleMs: number;
}

export class Keepalive {
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly providers: () => ProviderState[],
    private readonly o: KeepaliveOptions,
    /** Connections of a provider kept open however idle (the pool's warm floor). */
    private readonly floor: (p: ProviderState) => number = () => 0,
    /** Called after each tick: the pool tops its warm floor up (a provider may have dropped a connection). */
    private readonly afterTick: (now: number) => void = () => undefined,
  ) {
    if (o.keepaliveMs <= 0) return;
    const period = Math.max(10, Math.min(o.keepaliveMs, o.maxIdleMs) / 4);
    this.timer = setInterval(() => this.tick(performance.now()), period);
    this.timer.unref(); // an idle pool never keeps the process alive
  }

  tick(now: number): void {
    for (const p of this.providers()) {
      const keep = this.floor(p);
      for (const pc of [...p.connections]) {
        if (pc.conn.isClosed || pc.conn.inflight > 0) continue;
        if (now - pc.lastWorkAt >= this.o.maxIdleMs && p.connections.size > keep) {
          p.connections.delete(pc);
          void pc.conn.quit();
        } else if (now - pc.conn.lastCommandAt >= this.o.keepaliveMs) {
          // A failed DATE closes the connection; the pool's onClose forgets it.
          pc.conn.date().catch(() => undefined);
        }
      }
    }
    this.afterTick(now);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
