import type { Clock } from '../clock/clock.js';
import type { ConfigService } from '../config/index.js';
import { DISK_FULL_MESSAGE } from '../errors/disk-full.js';
import type { EventSource, SpoolEvents } from '../events/index.js';
import type { HealthDomain } from '../health/index.js';
import type { ImporterDomain } from '../importer/index.js';
import type { Logger } from '../logging/logger.js';
import { BacklogWatch, httpSender, notices, Notifier, ProviderWatch, StallWatch } from '../notify/index.js';
import type { AppCore } from './core.js';
import { built, type Built } from './lifetime.js';

/**
 * Notifications (docs/notifications.md): the notifier with its targets' queues, and what it hears from the bus.
 * Subscribers only hand notices over; each target's queue sends on its own.
 */
export function createNotifications(core: AppCore, importer: ImporterDomain, health: HealthDomain): Built<Notifier> {
  const { config, clock } = core;
  const logger = core.logger.child('notify');
  const settings = () => config.get().notifications;
  const notifier = new Notifier({
    settings,
    send: httpSender(() => settings().timeout_seconds * 1000),
    clock,
    logger,
  });
  const off = wireNotifications({ events: core.events, config, notifier, importer, health, clock, logger });
  return built(notifier, () => notifier.close(), off);
}

export interface NotificationWiring {
  events: EventSource<SpoolEvents>;
  config: ConfigService;
  notifier: Notifier;
  importer: ImporterDomain;
  health: HealthDomain;
  clock: Clock;
  logger: Logger;
}

/**
 * What notifications hear from the rest of Spool (docs/notifications.md): every subscriber only builds a notice and
 * hands it to the notifier, which returns at once; nothing here awaits a target. The frequent events (streams, the
 * pool's metrics tick) are listened to only while notifications are enabled, so an appliance without them builds
 * none of those payloads. Returns the unsubscribe.
 */
export function wireNotifications(w: NotificationWiring): () => void {
  const { events, notifier, clock } = w;
  const settings = () => w.config.get().notifications;
  const providers = new ProviderWatch();
  const send = (n: ReturnType<typeof notices.diskFull> | undefined) => n && notifier.notify(n);
  const failedLookup = (err: unknown) =>
    w.logger.warn('could not read a failed import for its notice', { error: String(err) });
  const stops = [
    events.on('queue.item.changed', (e) => {
      const failing = e.status === 'failed' || e.status === 'retrying';
      if (!failing || e.previous_status === e.status || !settings().enabled) return;
      void w.importer.queue
        .get(e.id)
        .then((item) => {
          const error = item?.errorMessage ?? '';
          if (error.startsWith(DISK_FULL_MESSAGE)) send(notices.diskFull(`import of ${e.name}`, error, clock.now()));
          if (e.status === 'failed') send(notices.importFailed(e, error, clock.now()));
        })
        .catch(failedLookup);
    }),
    events.on('repair.requested', (e) => send(notices.repair('requested', e, clock.now()))),
    events.on('repair.done', (e) => send(notices.repair('done', e, clock.now()))),
    events.on('repair.failed', (e) => send(notices.repair('failed', e, clock.now()))),
    events.on('repair.brake.changed', (e) => send(notices.repairBrake(e, clock.now()))),
    events.on('disk.full', (e) => send(notices.diskFull(e.where, e.error, clock.now()))),
    events.on('provider.state.changed', (e) => providers.state(e, clock.now()).forEach(send)),
    events.on('provider.quota.changed', (e) => send(notices.providerQuota(e, clock.now()))),
    events.on('provider.expiry.near', (e) => send(notices.providerExpiring(e, clock.now()))),
    whileEnabled(w, () => watchFrequent(w, providers)),
    watchBacklog(w),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}

/** Subscribes with `subscribe` while notifications.enabled is on, and drops the subscriptions when it goes off. */
function whileEnabled(w: NotificationWiring, subscribe: () => () => void): () => void {
  let stop: (() => void) | null = null;
  const apply = () => {
    const on = w.config.get().notifications.enabled;
    if (on && !stop) stop = subscribe();
    else if (!on && stop) {
      stop();
      stop = null;
    }
  };
  apply();
  const unsubscribe = w.events.on('config.changed', apply);
  return () => {
    unsubscribe();
    stop?.();
  };
}

/** Streams that stall, and providers whose connections are all busy (the pool's metrics tick). */
function watchFrequent(w: NotificationWiring, providers: ProviderWatch): () => void {
  const { events, notifier, clock } = w;
  const stalls = new StallWatch();
  const threshold = () => w.config.get().notifications.stall_seconds * 1000;
  const stops = [
    events.on('stream.opened', (e) => stalls.opened(e.stream_id, e.path)),
    events.on('stream.progress', (e) => {
      const n = stalls.progress(e.stream_id, e.stalled_ms, threshold(), clock.now());
      if (n) notifier.notify(n);
    }),
    events.on('stream.closed', (e) => {
      const n = stalls.closed(e.stream_id, e.stalled_ms, threshold(), clock.now());
      if (n) notifier.notify(n);
    }),
    events.on('pool.metrics.tick', (m) => providers.metrics(m, clock.now()).forEach((n) => notifier.notify(n))),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}

/** Samples the files waiting for their first check once every notifications.backlog_window_minutes. */
function watchBacklog(w: NotificationWiring): () => void {
  const watch = new BacklogWatch();
  let cancel = (): void => undefined;
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    const s = w.config.get().notifications;
    if (s.enabled) {
      void w.health.service
        .stats()
        .then((stats) => {
          const n = watch.sample(stats.pending, s.backlog_growth, s.backlog_window_minutes, w.clock.now());
          if (n) w.notifier.notify(n);
        })
        .catch((err: unknown) => w.logger.warn('could not read the health backlog', { error: String(err) }));
    }
    cancel = w.clock.schedule(tick, s.backlog_window_minutes * 60_000);
  };
  tick();
  return () => {
    stopped = true;
    cancel();
  };
}
