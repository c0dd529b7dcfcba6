/**
 * Notifications: notices of what went wrong (and came right) sent to a generic JSON webhook, ntfy, Discord or an
 * Apprise API server, rate-limited, retried and bounded per target, never awaited by whoever caused them.
 *
 *   const notifier = new Notifier({ settings: () => config.get().notifications, send: httpSender(...), clock, logger });
 *   notifier.notify(notices.importFailed(item, error, clock.now())); // synchronous, never throws
 *   await notifier.test({ type: 'ntfy', url, token }); // { ok, error }
 * The bus subscriptions are in appliance/app/notifications.ts. See docs/notifications.md.
 */
export { Notifier, type NotifierDeps } from './notifier.js';
export { httpSender, type Sender } from './send.js';
export { formatRequest, type TargetAddress } from './format.js';
export { notices } from './notices.js';
export type { Notice } from './notice.js';
export { BacklogWatch, ProviderWatch, StallWatch } from './watchers.js';
export { RETRY_DELAYS_MS } from './target-queue.js';
export type * from './notify.wire.js';
export { NOTIFY_KINDS, NOTIFY_TARGET_TYPES } from './notify.wire.js';
