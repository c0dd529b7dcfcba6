import net from 'node:net';

/**
 * A TCP relay in front of a server (the test INN) that plays an outage: `stop()` closes the listener and cuts
 * every relayed connection (new ones are refused), `start()` listens again on the same port. Closing either side
 * of a relayed connection closes the other. With `cap`, it plays an account's connection cap instead: `cap`
 * connections relayed at once, the next answered `refusal` (default '481 Too many connections') in place of the
 * server's greeting and closed, as providers do (docs/nntp.md, "Connection caps").
 */
export class Relay {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  port = 0;
  /** Connections relayed now, the most at once, all relayed so far, and those refused over `cap`. */
  readonly counts = { active: 0, maxActive: 0, relayed: 0, refused: 0 };
  constructor(
    private readonly target: { host: string; port: number },
    private readonly options: { cap?: number; refusal?: string } = {},
  ) {}

  async start(): Promise<void> {
    this.server = net.createServer((client) => {
      const { cap, refusal = '481 Too many connections' } = this.options;
      if (cap !== undefined && this.counts.active >= cap) {
        this.counts.refused++;
        client.on('error', () => undefined);
        client.end(refusal + '\r\n');
        return;
      }
      this.counts.relayed++;
      this.counts.maxActive = Math.max(this.counts.maxActive, ++this.counts.active);
      client.once('close', () => this.counts.active--);
      const upstream = net.connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  /**
   * Stops listening only: new connections are refused while those relayed so far go on (a server whose listener
   * stopped while its readers still serve, as INN's nnrpd outlives innd). `start()` listens again.
   */
  pause(): void {
    // close() stops accepting at once; its callback would wait for the relayed connections to end.
    this.server?.close();
    this.server = undefined;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }
}
