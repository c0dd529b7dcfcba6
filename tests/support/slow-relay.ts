import net from 'node:net';

/**
 * A loopback relay to a server (the test INN) that holds each server->client chunk for `delayMs` before passing
 * it on, and reads nothing more meanwhile: a slow provider, so an import takes seconds and a test can act in the
 * middle of it. Set `delayMs = 0` to let it run at full speed again.
 */
export class SlowRelay {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(
    private readonly target: { host: string; port: number },
    public delayMs: number,
  ) {}

  async start(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.once('close', () => this.sockets.delete(s));
      }
      client.pipe(upstream);
      upstream.on('data', (chunk) => {
        upstream.pause();
        setTimeout(() => {
          if (!client.destroyed) client.write(chunk);
          upstream.resume();
        }, this.delayMs);
      });
      const close = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', close).on('close', close);
      upstream.on('error', close).on('close', close);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }
}
