/**
 * One request waiting in, or served by, the pool: what it asks, and what it learned of each provider so far (the
 * evidence the verdict rules in request-failures.ts read). Built only by createRequest, so every request starts
 * from the same state whichever door it came in by (body/stat, or a STAT batch).
 */
import { InvalidRequestError, NntpError, ProtocolError } from './errors.js';
import { laneOf, type Lane } from './request-queue.js';
import type { ReaderKind, RequestPriority } from './types.js';

export interface RequestOptions {
  priority?: RequestPriority;
  signal?: AbortSignal;
  /** BODY only: decode into this buffer when it is large enough (the result's data is then a view of it). */
  into?: Buffer;
  /** Goes to the head of its lane: the article a reader waits for right now (the first one after a seek). */
  urgent?: boolean;
  /**
   * Stream lane only (docs/nntp.md, "Lanes"): who reads. A scanner's reads go below every player's, and while a
   * player reads they hold at most the background budget of a provider's connections. Default: a player.
   */
  reader?: ReaderKind;
  /** Stream lane only: fetched ahead of the reader (below the bytes a player waits for now). */
  readAhead?: boolean;
  /** The read handle it is for: players share the connections fairly by it. */
  stream?: number;
  /**
   * When the article was posted (ms since the epoch; the NZB's `<file date>`): providers past their retention are
   * asked last or never (request-routing.ts). Undefined: unknown, every provider is asked in its usual order.
   */
  postedAt?: number;
}

export interface PoolRequest {
  kind: 'body' | 'stat';
  messageId: string;
  priority: RequestPriority;
  /** The queue lane it waits in (from priority, reader and read-ahead: request-queue.ts). */
  lane: Lane;
  /** The read handle it is for (undefined: none said). */
  stream: number | undefined;
  /** Went to the head of its lane. */
  urgent: boolean;
  into: Buffer | undefined;
  /** performance.now() of when it (last) started waiting for a slot: the metrics' acquire wait. */
  enqueuedAt: number;
  /** Providers that answered 430 (or served a damaged copy): never asked again for this request. */
  missingOn: Set<string>;
  /** Of those, the ones that answered 430: the rest of their backbone is not asked either (request-routing.ts). */
  notFoundOn: Set<string>;
  /** The post date from RequestOptions (ms since the epoch), undefined when unknown. */
  postedAt: number | undefined;
  /** Providers that failed it without saying anything about the article: skipped until every candidate did. */
  failedOn: Set<string>;
  attempts: number;
  lastError: NntpError | undefined;
  /** The last failure that was not evidence about the article (refused, timeout, auth ...). */
  lastOutage: NntpError | undefined;
  /** When it started waiting for a cooling provider (undefined when it is not). */
  coolingSince: number | undefined;
  settled: boolean;
  /** On the wire with nobody waiting for it (NntpPool.leftBehind): a failure ends it, no other provider is tried. */
  leftBehind?: boolean;
  /** Settles the request once; later calls (an abort racing an answer) do nothing. */
  finish(err: Error | undefined, value?: unknown): void;
}

export function createRequest(
  kind: 'body' | 'stat',
  messageId: string,
  priority: RequestPriority,
  into: Buffer | undefined,
  enqueuedAt: number,
  onSettled: (err: Error | undefined, value: unknown) => void,
  tags: Pick<RequestOptions, 'reader' | 'readAhead' | 'stream' | 'urgent' | 'postedAt'> = {},
): PoolRequest {
  const req: PoolRequest = {
    kind,
    messageId,
    priority,
    lane: laneOf(priority, tags),
    stream: tags.stream,
    urgent: tags.urgent === true,
    into,
    enqueuedAt,
    missingOn: new Set(),
    notFoundOn: new Set(),
    postedAt: tags.postedAt,
    failedOn: new Set(),
    attempts: 0,
    lastError: undefined,
    lastOutage: undefined,
    coolingSince: undefined,
    settled: false,
    finish(err, value) {
      if (req.settled) return;
      req.settled = true;
      onSettled(err, value);
    },
  };
  return req;
}

const MESSAGE_ID = /^<[^\s<>]{1,250}>$/;

/** The id in angle brackets as sent on the wire, or undefined when it cannot be one. */
export function normalizeMessageId(raw: string): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const t = raw.trim();
  const id = t.startsWith('<') ? t : `<${t}>`;
  return MESSAGE_ID.test(id) ? id : undefined;
}

export const invalidMessageId = (raw: unknown): InvalidRequestError =>
  new InvalidRequestError(`Invalid message id: ${String(raw).slice(0, 80)}`);

/** Anything a command rejected with, as the pool's typed error (a non-NNTP error is the server's garbage). */
export const asNntpError = (err: unknown): NntpError =>
  err instanceof NntpError ? err : new ProtocolError(err instanceof Error ? err.message : String(err));
