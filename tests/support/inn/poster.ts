/**
 * Posts yEnc articles to an NNTP server with POST (after AUTHINFO) over a few parallel connections, and builds
 * the NZB describing what was posted. Used by the INN harness; works against any server that accepts POST.
 */
import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { encodeArticleBody, splitIntoParts } from '../yenc/encode.js';

export interface PostTarget {
  host: string;
  port: number;
  username: string;
  password: string;
  group: string;
}

export interface PostedSegment {
  number: number;
  /** Without angle brackets, as in an NZB. */
  messageId: string;
  /** Size of the encoded article body (the NZB's bytes attribute). */
  bytes: number;
  offset: number;
  size: number;
}

export interface PostedFile {
  name: string;
  size: number;
  subject: string;
  segments: PostedSegment[];
  messageIds: string[];
  nzbXml: string;
}

export interface PostOptions {
  /** Decoded bytes per article (default 768,000, a common Usenet size). */
  articleSize?: number;
  connections?: number;
  poster?: string;
  /** Parts (1-based) posted with a wrong yEnc CRC: a complete body that is damaged. */
  damagedParts?: number[];
  /** The message ids to post under, one per part (default: fresh ones): the same article on a second server. */
  messageIds?: readonly string[];
}

/** A line-oriented NNTP session for posting: one command at a time. */
class PostSession {
  private buf = '';
  private waiters: Array<(line: string) => void> = [];
  private failed: Error | undefined;

  private constructor(private readonly socket: net.Socket) {
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      this.buf += d;
      this.deliver();
    });
    socket.on('error', (e) => (this.failed = e));
    socket.on('close', () => {
      this.failed ??= new Error('NNTP connection closed while posting');
      for (const w of this.waiters.splice(0)) w(`599 ${this.failed.message}`);
    });
  }

  static async open(t: PostTarget): Promise<PostSession> {
    const socket = net.connect(t.port, t.host);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const s = new PostSession(socket);
    await s.expect(null, [200]);
    await s.expect(`AUTHINFO USER ${t.username}`, [381, 281]);
    await s.expect(`AUTHINFO PASS ${t.password}`, [281]);
    return s;
  }

  /** Hand complete lines to whoever waits for one. */
  private deliver(): void {
    for (let nl = this.buf.indexOf('\r\n'); nl >= 0 && this.waiters.length > 0; nl = this.buf.indexOf('\r\n')) {
      const line = this.buf.slice(0, nl);
      this.buf = this.buf.slice(nl + 2);
      this.waiters.shift()!(line);
    }
  }

  private next(): Promise<string> {
    if (this.failed && !this.buf.includes('\r\n')) return Promise.resolve(`599 ${this.failed.message}`);
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.deliver();
    });
  }

  async expect(command: string | Buffer | null, codes: number[]): Promise<string> {
    if (command !== null) this.socket.write(typeof command === 'string' ? command + '\r\n' : command);
    const line = await this.next();
    if (!codes.includes(Number(line.slice(0, 3))))
      throw new Error(`NNTP post: ${typeof command === 'string' ? command.split(' ')[0] : 'article'} answered ${line}`);
    return line;
  }

  async post(article: Buffer): Promise<void> {
    await this.expect('POST', [340]);
    await this.expect(article, [240]);
  }

  close(): void {
    this.socket.end('QUIT\r\n');
  }
}

/** Post raw articles (headers + CRLF + dot-stuffed body, without the final "."), several at a time. */
export async function postArticles(
  t: PostTarget,
  articles: AsyncIterable<Buffer> | Iterable<Buffer>,
  connections = 4,
): Promise<void> {
  const sessions = await Promise.all(Array.from({ length: connections }, () => PostSession.open(t)));
  const iterator = (
    Symbol.asyncIterator in articles
      ? articles[Symbol.asyncIterator]()
      : (articles as Iterable<Buffer>)[Symbol.iterator]()
  ) as AsyncIterator<Buffer> | Iterator<Buffer>;
  try {
    await Promise.all(
      sessions.map(async (s) => {
        for (;;) {
          const n = await iterator.next();
          if (n.done) return;
          await s.post(Buffer.concat([n.value, Buffer.from('.\r\n')]));
        }
      }),
    );
  } finally {
    for (const s of sessions) s.close();
  }
}

/** yEnc-encode a file into articles, post them, and return the segments and a valid NZB. */
export async function postFile(
  t: PostTarget,
  name: string,
  bytes: Buffer,
  opts: PostOptions = {},
): Promise<PostedFile> {
  const articleSize = opts.articleSize ?? 768_000;
  const parts = splitIntoParts(bytes, articleSize);
  const poster = opts.poster ?? 'Spool Test <poster@spool.test>';
  const subject = `"${name}" yEnc`;
  const segments: PostedSegment[] = [];
  function* articles(): Generator<Buffer> {
    for (const part of parts) {
      const messageId = opts.messageIds?.[part.part - 1] ?? `${randomUUID()}@spool.test`;
      const body = encodeArticleBody({
        name,
        fileSize: bytes.length,
        part: part.part,
        totalParts: parts.length,
        offset: part.offset,
        data: part.data,
        ...(opts.damagedParts?.includes(part.part) ? { fakeCrc: '0badc0de' } : {}),
      });
      segments.push({ number: part.part, messageId, bytes: body.length, offset: part.offset, size: part.data.length });
      const head =
        `From: ${poster}\r\nNewsgroups: ${t.group}\r\nSubject: ${subject} (${part.part}/${parts.length})\r\n` +
        `Message-ID: <${messageId}>\r\n\r\n`;
      yield Buffer.concat([Buffer.from(head, 'utf8'), body]);
    }
  }
  await postArticles(t, articles(), Math.min(opts.connections ?? 4, parts.length));
  segments.sort((a, b) => a.number - b.number);
  const file = { name, size: bytes.length, subject, segments, messageIds: segments.map((s) => s.messageId) };
  return { ...file, nzbXml: buildNzb([file], t.group, poster) };
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** An NZB 1.1 document for the given files. */
export function buildNzb(
  files: Array<Pick<PostedFile, 'subject' | 'segments'>>,
  group: string,
  poster: string,
): string {
  const date = Math.floor(Date.now() / 1000);
  const body = files
    .map(
      (f) =>
        `  <file poster="${xml(poster)}" date="${date}" subject="${xml(`${f.subject} (1/${f.segments.length})`)}">\n` +
        `    <groups><group>${xml(group)}</group></groups>\n    <segments>\n` +
        f.segments
          .map((s) => `      <segment bytes="${s.bytes}" number="${s.number}">${xml(s.messageId)}</segment>`)
          .join('\n') +
        `\n    </segments>\n  </file>`,
    )
    .join('\n');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<!DOCTYPE nzb PUBLIC "-//newzBin//DTD NZB 1.1//EN" "http://www.newzbin.com/DTD/nzb/nzb-1.1.dtd">\n' +
    `<nzb xmlns="http://www.newzbin.com/DTD/2003/nzb">\n${body}\n</nzb>\n`
  );
}
