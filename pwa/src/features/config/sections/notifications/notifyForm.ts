import {
  NOTIFY_KINDS,
  type NotifyKind,
  type NotifyTargetType,
  type NotifyTargetView,
  type NotifyTestInput,
  type SpoolConfig,
} from '../../../../api/types';
import { nameAndUrlProblems } from '../cards/itemRules';

/** One target being edited: the saved view plus a token typed now ('' keeps the stored one). */
export interface TargetForm extends NotifyTargetView {
  token: string;
  /** The name it was saved under (the server finds its stored token by it); '' for a new target. */
  saved_name: string;
}

export type NotificationsForm = Omit<SpoolConfig['notifications'], 'targets'> & { targets: TargetForm[] };

export const TYPE_LABEL: Record<NotifyTargetType, string> = {
  webhook: 'Webhook (JSON)',
  ntfy: 'ntfy',
  discord: 'Discord',
  apprise: 'Apprise API',
};

export const URL_PLACEHOLDER: Record<NotifyTargetType, string> = {
  webhook: 'https://example.org/hooks/spool',
  ntfy: 'https://ntfy.sh/my-spool-alerts',
  discord: 'https://discord.com/api/webhooks/…',
  apprise: 'http://apprise:8000/notify/spool',
};

export function formFromConfig(n: SpoolConfig['notifications']): NotificationsForm {
  return {
    ...n,
    targets: n.targets.map((t) => ({ ...t, token: '', saved_name: t.name })),
  };
}

export function newTarget(index: number): TargetForm {
  return {
    name: `Target ${index + 1}`,
    type: 'webhook',
    url: '',
    token: '',
    token_set: false,
    enabled: true,
    events: [...NOTIFY_KINDS],
    saved_name: '',
  };
}

/** What PATCH /config/notifications is sent: the token only when typed (blank keeps the stored one). */
export function payloadOf(form: NotificationsForm): Record<string, unknown> {
  return {
    ...form,
    targets: form.targets.map(({ saved_name: _saved, token_set: _set, ...t }) => ({
      ...t,
      name: t.name.trim(),
      url: t.url.trim(),
    })),
  };
}

/** The test of one target as shown (saved or not): the typed token, else the one stored under its saved name. */
export function testInput(t: TargetForm): NotifyTestInput {
  return { name: t.saved_name || t.name, type: t.type, url: t.url.trim(), token: t.token };
}

export const toggleKind = (events: NotifyKind[], kind: NotifyKind, on: boolean): NotifyKind[] =>
  on ? NOTIFY_KINDS.filter((k) => k === kind || events.includes(k)) : events.filter((k) => k !== kind);

/** The problems that keep the form from saving, in words. */
export function problemsOf(form: NotificationsForm): string[] {
  return nameAndUrlProblems(form.targets, 'target');
}
