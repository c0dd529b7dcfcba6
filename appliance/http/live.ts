import type {
  HttpRequest as UwsRequest,
  HttpResponse as UwsResponse,
  us_socket_context_t,
  WebSocket,
  WebSocketBehavior,
} from 'uws-pack';
import { AppError } from '../errors/app-error.js';
import { LIVE_DEFAULT_TOPICS, LIVE_MAX_CLIENT_MESSAGE, type LiveTopic } from '../events/live.wire.js';
import type { Logger } from '../logging/logger.js';
import { clientAddress } from './client-address.js';
import type { Principal } from './context.js';
import { authorize, publicHost, type Gatekeeper, type NetworkPolicy } from './dispatch.js';
import { errorBody } from './envelope.js';
import { Reply } from './reply.js';
import { readRequest } from './request.js';
import { parseLiveClientMessage, TopicSubscribers, type TopicDemand } from './live-topics.js';
import { checkPageOrigin } from './request-guard.js';
import { addSecurityHeaders } from './security-headers.js';

/**
 * Bytes a client may have waiting unsent before it is dropped: a console that stopped reading loses its channel
 * (it reconnects and reloads) rather than growing the server's memory.
 */
export const LIVE_MAX_BACKPRESSURE = 1024 * 1024;

/** Close codes: the app is going away (restart, stop); the client read too slowly. */
const GOING_AWAY = 1001;
const TOO_SLOW = 1013;

/** What a connection carries: the endpoint (app) that accepted it and who signed it. */
export interface LiveConnection {
  endpoint: LiveEndpoint;
  principal: Principal;
}

export interface LiveOptions {
  gatekeeper: Gatekeeper;
  network: NetworkPolicy;
  logger: Logger;
  /** The first message on every new connection (JSON text). */
  hello: () => string;
}

/**
 * The live channel of one app: a WebSocket route beside the HTTP handler (docs/architecture.md, "Events and the
 * live channel"). The upgrade is authenticated exactly like a `user` route (API key, Basic or session cookie; open
 * when login is not required), and a caller signed by what the browser adds by itself must name the console's own
 * origin (request-guard.ts `checkPageOrigin`): otherwise 401/403 before any upgrade. Messages go out as JSON text;
 * a client past LIVE_MAX_BACKPRESSURE is dropped. A client receives the topics it subscribed to (LIVE_DEFAULT_TOPICS
 * until its first `subscribe`); an event is serialised once, and only when someone subscribes to its topic.
 */
export class LiveEndpoint {
  private readonly clients = new Set<WebSocket<LiveConnection>>();
  private readonly topics = new TopicSubscribers<WebSocket<LiveConnection>>();
  private closed = false;

  constructor(private readonly o: LiveOptions) {}

  get connections(): number {
    return this.clients.size;
  }

  /** Whether any client receives `topic` now. */
  wants(topic: LiveTopic): boolean {
    return this.topics.wants(topic);
  }

  /** Hears each topic's first subscriber and last unsubscribe (told at once of the topics wanted now). */
  onDemand(listener: TopicDemand): () => void {
    for (const topic of this.topics.wanted()) listener(topic, true);
    return this.topics.onDemand(listener);
  }

  /** Sends `message()` (built once) to the subscribers of `topic`; nothing is built when there are none. */
  publish(topic: LiveTopic, message: () => string): void {
    const to = this.topics.of(topic);
    if (to.length === 0) return;
    const text = message();
    for (const ws of to) this.send(ws, text);
  }

  /** A client's message: a `subscribe` replaces its topics; anything else is answered with an error. */
  received(ws: WebSocket<LiveConnection>, data: ArrayBuffer, isBinary: boolean): void {
    if (!this.clients.has(ws)) return;
    const msg = parseLiveClientMessage(data, isBinary);
    if (typeof msg === 'string') {
      ws.send(JSON.stringify({ type: 'error', message: msg }));
      return;
    }
    this.topics.set(ws, msg.topics);
  }

  /** uWS hands the upgrade request here: headers are copied now, the answer may come after awaits. */
  upgrade(res: UwsResponse, req: UwsRequest, context: us_socket_context_t): void {
    const reply = new Reply(res);
    const key = req.getHeader('sec-websocket-key');
    const protocol = req.getHeader('sec-websocket-protocol');
    const extensions = req.getHeader('sec-websocket-extensions');
    const request = readRequest(res, req, null);
    void (async () => {
      try {
        if (this.closed) throw new AppError('STARTING', 'Spool is restarting');
        const proxies = this.o.network.trustedProxies();
        request.viaTrustedProxy = proxies.has(request.peer);
        request.ip = clientAddress(request.peer, request.header('x-forwarded-for'), proxies);
        const principal = await authorize(this.o.gatekeeper, request, 'user');
        checkPageOrigin(request, principal, publicHost(request), this.o.network.trustedOrigins());
        if (!principal) throw new AppError('AUTH_REQUIRED', 'Authentication required');
        reply.upgrade<LiveConnection>({ endpoint: this, principal }, key, protocol, extensions, context);
      } catch (err) {
        refuse(reply, err, this.o.logger);
      }
    })();
  }

  opened(ws: WebSocket<LiveConnection>): void {
    if (this.closed) {
      ws.end(GOING_AWAY, 'Spool is restarting');
      return;
    }
    this.clients.add(ws);
    ws.send(this.o.hello());
    this.topics.set(ws, LIVE_DEFAULT_TOPICS);
  }

  gone(ws: WebSocket<LiveConnection>): void {
    this.clients.delete(ws);
    this.topics.remove(ws);
  }

  /** Sends to one client; one that has fallen too far behind is dropped instead. */
  private send(ws: WebSocket<LiveConnection>, message: string): void {
    if (ws.getBufferedAmount() > LIVE_MAX_BACKPRESSURE) {
      this.gone(ws);
      ws.end(TOO_SLOW, 'Too slow: reconnect');
      return;
    }
    ws.send(message);
  }

  /** Ends every connection (the app stops or restarts; the console reconnects to the next one). */
  close(): void {
    this.closed = true;
    for (const ws of [...this.clients]) {
      this.gone(ws);
      ws.end(GOING_AWAY, 'Spool is restarting or stopping');
    }
  }
}

/** An upgrade refused: the error's status and envelope, as any route would answer it. */
function refuse(reply: Reply, err: unknown, logger: Logger): void {
  const appErr =
    err instanceof AppError ? err : new AppError('UNEXPECTED', 'Internal server error', 'the live channel upgrade');
  if (!(err instanceof AppError)) logger.error('live channel upgrade failed', { error: String(err) });
  addSecurityHeaders(reply, 'data');
  reply.json(appErr.status, errorBody(appErr));
}

/**
 * The uWS behaviour of the live route, registered once by the Front: upgrades go to the endpoint of the app
 * mounted now (`current`); while none is (starting, restarting) they get 503. A connection keeps the endpoint that
 * accepted it. Clients send `subscribe` messages (events/live.wire.ts); one larger than 4 KiB closes the connection.
 */
export function liveBehavior(current: () => LiveEndpoint | null): WebSocketBehavior<LiveConnection> {
  return {
    maxPayloadLength: LIVE_MAX_CLIENT_MESSAGE,
    idleTimeout: 120,
    sendPingsAutomatically: true,
    maxBackpressure: LIVE_MAX_BACKPRESSURE,
    closeOnBackpressureLimit: true,
    upgrade(res, req, context) {
      const endpoint = current();
      if (endpoint) return endpoint.upgrade(res, req, context);
      const reply = new Reply(res);
      reply.header('Retry-After', '2');
      reply.json(503, errorBody(new AppError('STARTING', 'Spool is starting')));
    },
    open: (ws) => ws.getUserData().endpoint.opened(ws),
    message: (ws, data, isBinary) => ws.getUserData().endpoint.received(ws, data, isBinary),
    close: (ws) => ws.getUserData().endpoint.gone(ws),
  };
}
