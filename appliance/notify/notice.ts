import type { NoticeJson, NotifyKind, NotifySeverity } from './notify.wire.js';

/** One thing to tell the targets about; `time` in ms since the epoch (the injected clock's). */
export interface Notice {
  kind: NotifyKind | 'test';
  title: string;
  message: string;
  severity: NotifySeverity;
  time: number;
  details: NoticeJson['details'];
}

/** The generic webhook's body (docs/notifications.md). */
export function noticeJson(n: Notice): NoticeJson {
  return {
    event: n.kind,
    title: n.title,
    message: n.message,
    severity: n.severity,
    time: new Date(n.time).toISOString(),
    details: n.details,
  };
}

/** Notices of one kind held back by the rate limit, said as one: the newest, and how many more came. */
export function coalesced(held: readonly Notice[]): Notice {
  const last = held[held.length - 1]!;
  if (held.length === 1) return last;
  const more = held.length - 1;
  return {
    ...last,
    message: `${last.message} (and ${more} more)`,
    details: { ...last.details, coalesced: held.length },
  };
}
