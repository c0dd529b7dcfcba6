import { noticeJson, type Notice } from './notice.js';
import type { NotifySeverity, NotifyTargetType } from './notify.wire.js';

/** Where and how to reach one target (notifications.targets[] of the config). */
export interface TargetAddress {
  type: NotifyTargetType;
  url: string;
  token: string;
}

/** One HTTP POST, ready to send. */
export interface OutboundRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

const JSON_TYPE = 'application/json';
const NTFY_PRIORITY: Record<NotifySeverity, string> = { info: '3', warning: '4', error: '5' };
const NTFY_TAG: Record<NotifySeverity, string> = {
  info: 'information_source',
  warning: 'warning',
  error: 'rotating_light',
};
const DISCORD_COLOR: Record<NotifySeverity, number> = { info: 0x3b82f6, warning: 0xf59e0b, error: 0xef4444 };
const APPRISE_TYPE: Record<NotifySeverity, string> = { info: 'info', warning: 'warning', error: 'failure' };

/** The request a target of each type expects for a notice (the formats are in docs/notifications.md). */
export function formatRequest(target: TargetAddress, n: Notice): OutboundRequest {
  const auth: Record<string, string> = target.token ? { Authorization: `Bearer ${target.token}` } : {};
  switch (target.type) {
    case 'webhook':
      return { url: target.url, headers: { 'Content-Type': JSON_TYPE, ...auth }, body: JSON.stringify(noticeJson(n)) };
    case 'ntfy':
      return {
        url: target.url,
        headers: {
          'Content-Type': 'text/plain; charset=utf-8',
          Title: headerSafe(n.title),
          Priority: NTFY_PRIORITY[n.severity],
          Tags: [NTFY_TAG[n.severity], 'spool', n.kind].join(','),
          ...auth,
        },
        body: n.message,
      };
    case 'discord':
      return {
        url: target.url,
        headers: { 'Content-Type': JSON_TYPE },
        body: JSON.stringify({
          content: cut(`**${n.title}**`, 2000),
          embeds: [
            {
              title: cut(n.title, 256),
              description: cut(n.message, 4096),
              color: DISCORD_COLOR[n.severity],
              timestamp: new Date(n.time).toISOString(),
              footer: { text: `Spool · ${n.kind}` },
            },
          ],
        }),
      };
    case 'apprise':
      return {
        url: target.url,
        headers: { 'Content-Type': JSON_TYPE, ...auth },
        body: JSON.stringify({ title: n.title, body: n.message, type: APPRISE_TYPE[n.severity] }),
      };
  }
}

/** Discord refuses a message whose fields exceed their limits (content 2000, embed title 256, description 4096). */
function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** HTTP header values are Latin-1 without line breaks: anything else becomes '?' and breaks become spaces. */
function headerSafe(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
}
