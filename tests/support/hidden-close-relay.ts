import net from 'node:net';

/**
 * A loopback relay to a server (the test PostgreSQL) that passes bytes both ways as they come, until the test cuts
 * one connection off from the server's side with `silence(port)`: from then on nothing the server sends on it
 * reaches the client, not even its close, and what the client sends is dropped once the server has gone. A network
 * that lost that connection (a partition, a middlebox) looks so: the client learns of it only by its own timeout.
 * Connections are named by the relay's local port towards the server, which the server sees as the client's
 * (`pg_stat_activity.client_port`).
 */
export class HiddenCloseRelay {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  private readonly silenced = new Set<number>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.once('close', () => this.sockets.delete(s));
      }
      let port: number | undefined;
      upstream.once('connect', () => (port = upstream.localPort));
      const silent = () => port !== undefined && this.silenced.has(port);
      client.on('data', (chunk) => {
        if (!upstream.destroyed) upstream.write(chunk);
      });
      upstream.on('data', (chunk) => {
        if (!silent()) client.write(chunk);
      });
      upstream.on('error', () => upstream.destroy());
      upstream.on('close', () => {
        if (!silent()) client.destroy();
      });
      client.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  /** The relay's local ports towards the server, one per open connection. */
  upstreamPorts(): number[] {
    return [...this.sockets]
      .filter((s) => s.remotePort === this.target.port)
      .map((s) => s.localPort)
      .filter((p): p is number => p !== undefined);
  }

  /** From now on the client of the connection whose port towards the server is `port` hears nothing on it. */
  silence(port: number): void {
    this.silenced.add(port);
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }
}
