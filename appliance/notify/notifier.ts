import type { Clock } from '../clock/clock.js';
import type { Logger } from '../logging/logger.js';
import type { TargetAddress } from './format.js';
import { coalesced, type Notice } from './notice.js';
import type { NotifyKind, NotifyTargetType, NotifyTestResult } from './notify.wire.js';
import type { Sender } from './send.js';
import { TargetQueue } from './target-queue.js';

/** One `notifications.targets` entry of the config, as the notifier reads it (docs/notifications.md). */
export interface NotifyTargetSettings {
  name: string;
  type: NotifyTargetType;
  url: string;
  token: string;
  enabled: boolean;
  events: readonly NotifyKind[];
}

/**
 * The `notifications` keys the notifier reads. Declared here, not taken from the config's schema, so this domain
 * imports nothing from config/ (config/ takes the kinds and target types from notify.wire.ts).
 */
export interface NotifySettings {
  enabled: boolean;
  targets: readonly NotifyTargetSettings[];
  min_interval_seconds: number;
  queue_size: number;
}

export interface NotifierDeps {
  /** notifications.* of the config, read at every notice (a save applies at once). */
  settings: () => NotifySettings;
  send: Sender;
  clock: Clock;
  logger: Logger;
}

/** Notices of one kind for one target held back by the rate limit, and the timer that will send them as one. */
interface Held {
  notices: Notice[];
  cancel: () => void;
}

/**
 * Sends notices to the configured targets. `notify` is synchronous and never throws: it picks the targets that want
 * the notice's kind and hands it to each target's queue (target-queue.ts), which sends, retries and bounds on its
 * own. Per target and kind, at most one notice goes out every `min_interval_seconds`; the ones in between are held
 * and sent as one ("... (and N more)") when the interval is over.
 */
export class Notifier {
  private readonly queues = new Map<string, TargetQueue>();
  /** When each target last got a notice of each kind (key: `<target>\n<kind>`). */
  private readonly lastSent = new Map<string, number>();
  private readonly held = new Map<string, Held>();
  private closed = false;

  constructor(private readonly d: NotifierDeps) {}

  notify(notice: Notice): void {
    try {
      const s = this.d.settings();
      if (!s.enabled || this.closed) return;
      for (const t of s.targets) {
        if (!t.enabled || !t.events.includes(notice.kind as NotifyKind)) continue;
        this.limited(t.name, notice, s.min_interval_seconds * 1000);
      }
    } catch (err) {
      this.d.logger.error('could not queue a notification', {
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }

  /** Sends a test notice to one target now, once, without retries; answers whether it took it. */
  async test(target: TargetAddress): Promise<NotifyTestResult> {
    const notice: Notice = {
      kind: 'test',
      title: 'Spool test notification',
      message: 'If you can read this, Spool can reach this target.',
      severity: 'info',
      time: this.d.clock.now(),
      details: {},
    };
    try {
      await this.d.send(target, notice);
      return { ok: true, error: null };
    } catch (err) {
      return { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  }

  /** Notices waiting for a target (the console and tests). */
  waiting(name: string): number {
    return this.queues.get(name)?.length ?? 0;
  }

  close(): void {
    this.closed = true;
    for (const h of this.held.values()) h.cancel();
    this.held.clear();
    for (const q of this.queues.values()) q.close();
    this.queues.clear();
  }

  private limited(target: string, notice: Notice, intervalMs: number): void {
    const key = `${target}\n${notice.kind}`;
    const held = this.held.get(key);
    if (held) {
      held.notices.push(notice);
      return;
    }
    const now = this.d.clock.now();
    const last = this.lastSent.get(key);
    if (last === undefined || now - last >= intervalMs) {
      this.lastSent.set(key, now);
      this.queue(target).push(notice);
      return;
    }
    const entry: Held = { notices: [notice], cancel: () => undefined };
    entry.cancel = this.d.clock.schedule(
      () => {
        this.held.delete(key);
        this.lastSent.set(key, this.d.clock.now());
        if (!this.closed) this.queue(target).push(coalesced(entry.notices));
      },
      last + intervalMs - now,
    );
    this.held.set(key, entry);
  }

  private queue(name: string): TargetQueue {
    let q = this.queues.get(name);
    if (!q) {
      q = new TargetQueue({
        name,
        address: () => addressOf(this.d.settings().targets.find((t) => t.name === name)),
        send: this.d.send,
        clock: this.d.clock,
        capacity: () => this.d.settings().queue_size,
        logger: this.d.logger,
      });
      this.queues.set(name, q);
    }
    return q;
  }
}

function addressOf(t: NotifyTargetSettings | undefined): TargetAddress | undefined {
  return t && t.enabled ? { type: t.type, url: t.url, token: t.token } : undefined;
}
