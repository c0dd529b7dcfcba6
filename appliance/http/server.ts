import {
  App,
  us_listen_socket_close,
  us_socket_local_port,
  type ListenOptions,
  type TemplatedApp,
  type us_listen_socket,
  type WebSocketBehavior,
} from 'uws-pack';
import type { HttpRequest as UwsRequest, HttpResponse as UwsResponse } from 'uws-pack';
import { limitListenSendBuffer, type SendBufferOutcome } from './socket-hold.js';

// uws-pack's typings declare a ListenOptions enum that its runtime module does not export (it exports the bare
// LIBUS_LISTEN_EXCLUSIVE_PORT = 1), so importing the enum as a value fails at load time.
const EXCLUSIVE_PORT = 1 as ListenOptions;

export interface RunningServer {
  readonly port: number;
  readonly host: string;
  /** The send buffer every accepted connection inherits, or why it is the kernel's autotuned one (socket-hold.ts). */
  readonly sendBuffer: SendBufferOutcome;
  /** Stops accepting new connections; open ones keep working (graceful stop, step one). */
  stopAccepting(): void;
  /** Stops accepting and closes every open connection. */
  close(): void;
}

/** A WebSocket route served beside the catch-all handler (the live channel, live.ts). */
export interface WebSocketRoute<T> {
  pattern: string;
  behavior: WebSocketBehavior<T>;
}

/**
 * Listens on host:port with one catch-all handler (and a WebSocket route, registered first). The exclusive-port
 * flag matters: without it uWS shares a busy port silently (docs/architecture.md, "uWS traps") and two Spools
 * would split the traffic. Right after listening it sets the listening socket's send buffer (socket-hold.ts).
 */
export function listen<T>(
  handler: (res: UwsResponse, req: UwsRequest) => void,
  host: string,
  port: number,
  ws?: WebSocketRoute<T>,
): Promise<RunningServer> {
  const app: TemplatedApp = App();
  if (ws) app.ws<T>(ws.pattern, ws.behavior);
  app.any('/*', handler);
  return new Promise((resolve, reject) => {
    // uWS accepts (host, port, options, cb) at run time; its typings only list (port, options, cb).
    const listenWithHost = app.listen as unknown as (
      h: string,
      p: number,
      o: ListenOptions,
      cb: (s: us_listen_socket | false) => void,
    ) => void;
    listenWithHost.call(app, host, port, EXCLUSIVE_PORT, (socket) => {
      if (!socket) {
        reject(new Error(`Cannot listen on ${host}:${port} (port in use or not permitted)`));
        return;
      }
      let listening = true;
      let closed = false;
      const stopAccepting = () => {
        if (!listening) return;
        listening = false;
        us_listen_socket_close(socket);
      };
      const listeningPort = us_socket_local_port(socket as never);
      resolve({
        port: listeningPort,
        host,
        sendBuffer: limitListenSendBuffer(listeningPort),
        stopAccepting,
        close() {
          if (closed) return;
          closed = true;
          stopAccepting();
          app.close();
        },
      });
    });
  });
}
