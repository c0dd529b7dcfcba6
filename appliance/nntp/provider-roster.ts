/**
 * The pool's providers in priority order, and those removed from the config that still finish their commands
 * (docs/nntp.md, "Live changes"): a provider keeps its state (breaker, measured link, TLS session) across
 * changes of its settings, and only connection settings start a new generation of connections.
 */
import { ProviderState } from './provider-state.js';
import type { ProviderConfig } from './types.js';

export class ProviderRoster {
  /** In config order: the order requests try them in. */
  active: ProviderState[] = [];
  /** Removed from the config: take no new work, and are forgotten once their last connection closed. */
  readonly draining = new Set<ProviderState>();

  all(): ProviderState[] {
    return [...this.active, ...this.draining];
  }

  update(list: ProviderConfig[]): void {
    const byId = new Map(this.active.map((p) => [p.id, p]));
    const next: ProviderState[] = [];
    for (const cfg of list) {
      let st = byId.get(cfg.id);
      byId.delete(cfg.id);
      if (!st) st = new ProviderState({ ...cfg });
      else {
        if (ProviderState.connectionKey(st.config) !== ProviderState.connectionKey(cfg)) {
          st.generation++;
          st.tlsSession = undefined;
          st.warmBackoffUntil = 0;
          st.warmFailures = 0;
          st.capacity.reset();
          // What tripped its breaker (a wrong password, a wrong host) may be what just changed: ask it again now.
          st.coolingUntil = 0;
          st.consecutiveFailures = 0;
        }
        st.config = { ...cfg };
      }
      next.push(st);
    }
    for (const gone of byId.values()) {
      gone.removed = true;
      this.draining.add(gone);
    }
    this.active = next;
  }

  forgetIfDrained(p: ProviderState): void {
    if (p.removed && p.connectionCount === 0) this.draining.delete(p);
  }
}
