import type { HttpRequest as UwsRequest, HttpResponse as UwsResponse } from 'uws-pack';
import { errorBody } from './envelope.js';
import { AppError } from '../errors/app-error.js';
import { LIVE_PATH } from '../events/live.wire.js';
import { liveBehavior, type LiveEndpoint } from './live.js';
import { Reply } from './reply.js';
import { listen, type RunningServer } from './server.js';

export type UwsHandler = (res: UwsResponse, req: UwsRequest) => void;

/**
 * The listening socket, kept apart from the app behind it: the port is open before the app is built and stays
 * open across an in-process restart, answering 503 "starting" (also on /ping, as Sonarr does) in between.
 */
export class Front {
  private handler: UwsHandler | null = null;
  private live: LiveEndpoint | null = null;
  private server: RunningServer | null = null;

  get port(): number | null {
    return this.server?.port ?? null;
  }

  async listen(host: string, port: number): Promise<RunningServer> {
    if (this.server) throw new Error('Front is already listening');
    this.server = await listen((res, req) => (this.handler ?? answerStarting)(res, req), host, port, {
      pattern: LIVE_PATH,
      behavior: liveBehavior(() => this.live),
    });
    return this.server;
  }

  /** Routes requests to `handler` and live channel upgrades to `live`; null puts the 503 "starting" answer back. */
  mount(handler: UwsHandler | null, live: LiveEndpoint | null = null): void {
    this.handler = handler;
    this.live = handler ? live : null;
  }

  stopAccepting(): void {
    this.server?.stopAccepting();
  }

  close(): void {
    this.server?.close();
    this.server = null;
  }
}

function answerStarting(res: UwsResponse, req: UwsRequest): void {
  const reply = new Reply(res);
  reply.header('Retry-After', '2');
  if (req.getUrl() === '/ping') reply.json(503, { status: 'Starting' });
  else reply.json(503, errorBody(new AppError('STARTING', 'Spool is starting')));
}
