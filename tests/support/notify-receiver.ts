import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitUntil } from './wait.js';

export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** The status this receiver answered (null while it holds the request). */
  answered: number | null;
}

/**
 * A local HTTP receiver on 127.0.0.1 standing in for a notification target: it records every request, and answers
 * with the statuses of `answers` in turn (the last one repeated); 'hang' holds the request open until close().
 */
export async function startReceiver(answers: (number | 'hang')[] = [200]) {
  const got: Received[] = [];
  const held: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = answers[Math.min(got.length, answers.length - 1)]!;
      const entry: Received = {
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        answered: null,
      };
      got.push(entry);
      if (answer === 'hang') {
        held.push(res);
        return;
      }
      entry.answered = answer;
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer === 200 ? 'ok' : 'receiver says no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    got,
    /** Waits until `count` requests came in (tests/support/wait.ts). */
    async waitFor(count: number): Promise<Received[]> {
      await waitUntil(
        () => `${got.length} of ${count} requests`,
        () => got.length >= count,
        { everyMs: 25 },
      );
      return got;
    },
    async close(): Promise<void> {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
