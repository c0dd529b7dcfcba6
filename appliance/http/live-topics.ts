import { LIVE_MAX_CLIENT_MESSAGE, LIVE_TOPICS, type LiveClientMessage, type LiveTopic } from '../events/live.wire.js';

/** Called when a topic gains its first subscriber (`wanted`) or loses its last one. */
export type TopicDemand = (topic: LiveTopic, wanted: boolean) => void;

/**
 * Who subscribes to which live topic. Publishing looks up one set; a topic nobody wants costs nothing, and the
 * demand listener hears each topic's first subscriber and last unsubscribe, so the app listens on the bus (and
 * builds payloads) only for topics someone wants.
 */
export class TopicSubscribers<C> {
  private readonly byTopic = new Map<LiveTopic, Set<C>>();
  private readonly byClient = new Map<C, ReadonlySet<LiveTopic>>();
  private readonly demand = new Set<TopicDemand>();

  /** Replaces the topics `client` receives (none: it stays known but receives nothing). */
  set(client: C, topics: Iterable<LiveTopic>): void {
    const next = new Set(topics);
    const before = this.byClient.get(client) ?? new Set<LiveTopic>();
    this.byClient.set(client, next);
    for (const topic of before) if (!next.has(topic)) this.leave(client, topic);
    for (const topic of next) if (!before.has(topic)) this.join(client, topic);
  }

  /** Forgets `client` (it went away). */
  remove(client: C): void {
    this.set(client, []);
    this.byClient.delete(client);
  }

  topicsOf(client: C): ReadonlySet<LiveTopic> {
    return this.byClient.get(client) ?? new Set();
  }

  /** The clients of `topic` now (a copy: sending may drop one). */
  of(topic: LiveTopic): C[] {
    const set = this.byTopic.get(topic);
    return set ? [...set] : [];
  }

  wants(topic: LiveTopic): boolean {
    return (this.byTopic.get(topic)?.size ?? 0) > 0;
  }

  /** The topics someone subscribes to now. */
  wanted(): LiveTopic[] {
    return [...this.byTopic.keys()];
  }

  /** Hears each topic's first subscriber and last unsubscribe; returns the stop. */
  onDemand(listener: TopicDemand): () => void {
    this.demand.add(listener);
    return () => this.demand.delete(listener);
  }

  private join(client: C, topic: LiveTopic): void {
    let set = this.byTopic.get(topic);
    if (!set) this.byTopic.set(topic, (set = new Set()));
    set.add(client);
    if (set.size === 1) for (const l of this.demand) l(topic, true);
  }

  private leave(client: C, topic: LiveTopic): void {
    const set = this.byTopic.get(topic);
    if (!set?.delete(client) || set.size > 0) return;
    this.byTopic.delete(topic);
    for (const l of this.demand) l(topic, false);
  }
}

const KNOWN = new Set<string>(LIVE_TOPICS);

/** Reads a client's message (events/live.wire.ts LiveClientMessage); a string saying what is wrong otherwise. */
export function parseLiveClientMessage(data: ArrayBuffer, isBinary: boolean): LiveClientMessage | string {
  if (isBinary) return 'messages are JSON text';
  if (data.byteLength > LIVE_MAX_CLIENT_MESSAGE) return `messages are at most ${LIVE_MAX_CLIENT_MESSAGE} bytes`;
  let msg: unknown;
  try {
    msg = JSON.parse(Buffer.from(data).toString('utf8'));
  } catch {
    return 'not JSON';
  }
  if (typeof msg !== 'object' || msg === null || (msg as { type?: unknown }).type !== 'subscribe') {
    return 'unknown message type (expected "subscribe")';
  }
  const topics = (msg as { topics?: unknown }).topics;
  if (!Array.isArray(topics) || !topics.every((t) => typeof t === 'string')) return 'topics must be a list of names';
  const unknown = topics.filter((t: string) => !KNOWN.has(t));
  if (unknown.length > 0) return `unknown topics: ${unknown.join(', ')}`;
  return { type: 'subscribe', topics: topics as LiveTopic[] };
}
