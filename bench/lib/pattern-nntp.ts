/**
 * A provider that has every article of a pattern (the scale bench, bench/scale.bench.ts): any message id
 * `part<P>of<N>.<anything>@<anything>` is article P of an N-article file of N * PATTERN_ARTICLE bytes, answered as a
 * real yEnc part (=ybegin/=ypart/=yend with its pcrc32) whose bytes depend only on P (an EBML magic, then P). A library of millions of
 * articles needs no posting, yet every read through Spool's pool fetches, decodes and checks real articles. Ids that
 * do not match are 430. Plain TCP on loopback; AUTHINFO accepts anything.
 */
import net from 'node:net';
import { encodeArticleBody } from '../../tests/support/yenc/encode.js';

/** Decoded bytes per article (a common posting size). */
export const PATTERN_ARTICLE = 768_000;
const EBML = 0x1a45dfa3;
const ID = /^<part(\d+)of(\d+)\.[^@>]*@[^>]+>$/;

/** A message id the pattern server answers: article `part` (1-based) of `total`; `salt` makes it unique. */
export function patternId(part: number, total: number, salt: string): string {
  return `part${part}of${total}.${salt}@scale.spool`;
}

export interface PatternServer {
  host: string;
  port: number;
  /** BODY, STAT and HEAD commands answered so far. */
  counts: { body: number; stat: number; head: number };
  close(): Promise<void>;
}

export async function startPatternServer(): Promise<PatternServer> {
  const counts = { body: 0, stat: 0, head: 0 };
  const sockets = new Set<net.Socket>();
  const bodies = new Map<string, Buffer>(); // by `P/N`: encoded once, kept while the map is small
  const bodyOf = (part: number, total: number): Buffer => {
    const key = `${part}/${total}`;
    let b = bodies.get(key);
    if (!b) {
      const data = Buffer.alloc(PATTERN_ARTICLE, part & 0xff);
      data.writeUInt32BE(EBML, 0); // every file starts as a Matroska one does (the importer checks .mkv content)
      data.writeUInt32BE(part, 4);
      const spec = { name: 'scale.bin', fileSize: total * PATTERN_ARTICLE, offset: (part - 1) * PATTERN_ARTICLE };
      b = Buffer.concat([encodeArticleBody({ ...spec, part, totalParts: total, data }), Buffer.from('.\r\n')]);
      if (bodies.size > 256) bodies.clear();
      bodies.set(key, b);
    }
    return b;
  };
  const answer = (socket: net.Socket, line: string): void => {
    const [verb = '', arg = ''] = line.split(' ');
    const send = (text: string) => socket.write(text + '\r\n');
    switch (verb.toUpperCase()) {
      case 'AUTHINFO':
        return void send(arg.toUpperCase() === 'USER' ? '381 Password required' : '281 Authentication accepted');
      case 'MODE':
        return void send('200 reader');
      case 'DATE':
        return void send('111 20260101000000');
      case 'QUIT':
        send('205 bye');
        return void socket.end();
      case 'BODY':
      case 'STAT':
      case 'HEAD': {
        const m = ID.exec(arg);
        const part = Number(m?.[1]);
        const total = Number(m?.[2]);
        if (!m || part < 1 || part > total) return void send('430 No Such Article Found');
        if (verb.toUpperCase() === 'STAT') {
          counts.stat++;
          return void send(`223 0 ${arg}`);
        }
        if (verb.toUpperCase() === 'HEAD') {
          counts.head++;
          return void socket.write(`221 0 ${arg}\r\nMessage-ID: ${arg}\r\nSubject: scale\r\n.\r\n`);
        }
        counts.body++;
        socket.write(`222 0 ${arg}\r\n`);
        return void socket.write(bodyOf(part, total));
      }
      default:
        return void send('500 What?');
    }
  };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.write('200 pattern NNTP ready\r\n');
    let pending = '';
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      for (let nl = pending.indexOf('\r\n'); nl >= 0; nl = pending.indexOf('\r\n')) {
        answer(socket, pending.slice(0, nl));
        pending = pending.slice(nl + 2);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    host: '127.0.0.1',
    port: (server.address() as net.AddressInfo).port,
    counts,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
