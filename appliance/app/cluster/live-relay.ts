import type { EventSource, SpoolEvents } from '../../events/index.js';
import { liveTopicsWhere, type LiveEventMessage, type LiveTopic } from '../../events/live.wire.js';
import type { LiveEndpoint } from '../../http/live.js';
import type { Logger } from '../../logging/logger.js';
import { MAX_NOTICE_BYTES, NoticeOutbox, type PgDb } from '../../store/pg/index.js';

/** The PostgreSQL channel live events travel on between nodes. */
export const LIVE_CHANNEL = 'spool_live';

/**
 * Topics that describe one node's own state, not the library: its pool (metrics ticks, a provider cooling down on
 * its connections) and its mount. Consoles see those of the node they are connected to only.
 */
export const NODE_LOCAL_TOPICS: readonly LiveTopic[] = liveTopicsWhere((t) => t.scope === 'node');

/** What goes between nodes: every live topic but the node-local ones (events/live.wire.ts LIVE_TOPIC_TRAITS). */
export const RELAYED_TOPICS: readonly LiveTopic[] = liveTopicsWhere((t) => t.scope === 'library');

/** The largest notice sent, in bytes (PostgreSQL refuses a payload of 8000 bytes or more). */
export { MAX_NOTICE_BYTES };

/** One relayed event, as the notice's payload. `seq` keeps two equal events apart (one transaction folds equal notices). */
interface Notice {
  node: string;
  seq: number;
  topic: LiveTopic;
  payload: unknown;
}

const RELAYED = new Set<string>(RELAYED_TOPICS);

/**
 * Carries live events between the nodes of one PostgreSQL (docs/architecture.md, "Events and the live channel"):
 * every relayed event on this node's bus is sent as `pg_notify('spool_live', {node, seq, topic, payload})`, in order,
 * and every notice of another node is handed to this node's live endpoint only. It is never emitted on the local bus,
 * so the subscribers there (notifications, metrics, the runner) never act on another node's event. A notice over
 * MAX_NOTICE_BYTES is not sent whole: an event listing paths (file.added, file.removed) goes as several events
 * that each list some; any other is dropped with a debug log. Returns the stop.
 */
export function relayLiveEvents(
  events: EventSource<SpoolEvents>,
  live: Pick<LiveEndpoint, 'publish'>,
  db: Pick<PgDb, 'query' | 'listen'>,
  nodeId: string,
  logger: Logger,
): () => void {
  const outbox = new NoticeOutbox(db, LIVE_CHANNEL, logger, 'live events');
  let seq = 0;
  const send = (topic: LiveTopic, payload: unknown) => {
    const envelope = (part: unknown) =>
      JSON.stringify({ node: nodeId, seq: ++seq, topic, payload: part } satisfies Notice);
    const whole = envelope(payload);
    if (Buffer.byteLength(whole) <= MAX_NOTICE_BYTES) return outbox.add(whole);
    const parts = splitPaths(payload, Buffer.byteLength(whole) - Buffer.byteLength(JSON.stringify(payload)));
    if (parts.length === 0) logger.debug('live event too large to relay; dropped', { topic, bytes: whole.length });
    for (const part of parts) outbox.add(envelope(part));
  };
  const offs = RELAYED_TOPICS.map((topic) => events.on(topic, (payload) => send(topic, payload)));
  const unlisten = db.listen(LIVE_CHANNEL, (text) => {
    const notice = parseNotice(text);
    if (!notice) return logger.debug('unreadable live notice ignored', { bytes: text.length });
    if (notice.node === nodeId) return;
    const message = { type: 'event', topic: notice.topic, data: notice.payload } as LiveEventMessage;
    live.publish(notice.topic, () => JSON.stringify(message));
  });
  return () => {
    for (const off of offs) off();
    unlisten();
    outbox.close();
  };
}

/**
 * An event whose `paths` do not fit one notice, as several events each listing a share of them (the rest of the
 * payload repeated), each within MAX_NOTICE_BYTES with `overhead` bytes of envelope; none for any other payload, or
 * when one path alone would not fit.
 */
function splitPaths(payload: unknown, overhead: number): unknown[] {
  if (typeof payload !== 'object' || payload === null) return [];
  const rest = payload as Record<string, unknown>;
  const paths = rest.paths;
  if (!Array.isArray(paths)) return [];
  // the envelope's seq may grow by a few digits between parts
  const budget = MAX_NOTICE_BYTES - overhead - Buffer.byteLength(JSON.stringify({ ...rest, paths: [] })) - 16;
  const parts: unknown[] = [];
  let share: unknown[] = [];
  let used = 0;
  for (const path of paths) {
    const bytes = Buffer.byteLength(JSON.stringify(path)) + 1;
    if (bytes > budget) return [];
    if (used + bytes > budget) {
      parts.push({ ...rest, paths: share });
      share = [];
      used = 0;
    }
    share.push(path);
    used += bytes;
  }
  if (share.length > 0) parts.push({ ...rest, paths: share });
  return parts;
}

function parseNotice(text: string): Notice | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const n = value as Partial<Notice> | null;
  if (typeof n !== 'object' || n === null || typeof n.node !== 'string' || typeof n.topic !== 'string') return null;
  if (!RELAYED.has(n.topic) || typeof n.payload !== 'object' || n.payload === null) return null;
  return n as Notice;
}
