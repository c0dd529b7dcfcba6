import { AppError } from '../errors/app-error.js';
import type { VfsNode } from '../vfs/types.js';
import type { ClientDrain, CloseReason } from '../vfs/read-handle.js';
import { socketHoldBytes } from '../http/socket-hold.js';
import { checkPreconditions, ifRangeHolds } from './conditional.js';
import { mimeOf, showsInline } from './mime.js';
import { parseRange, type ByteRange } from './ranges.js';
import { davStatus, hrefOf, showsCorrupted, type DavRequest } from './webdav.types.js';
import { escapeXml } from './xml.js';

/**
 * GET and HEAD: the whole file, one range (206 + Content-Range) or several (multipart/byteranges), each read
 * through one read handle (appliance/vfs/read-handle.ts, as FUSE reads) for exactly the bytes asked for. Headers go out only once the first bytes are in hand,
 * so an article missing everywhere is a clean 502 rather than a truncated 200.
 */
export async function handleGet(r: DavRequest): Promise<void> {
  const { ctx, deps } = r;
  const node = deps.vfs.requireNode(r.path);
  if (node.type === 'directory') return listingPage(r, node);
  const lastModified = new Date(node.modifiedAt).toUTCString();
  const common: Record<string, string> = { ETag: node.etag, 'Last-Modified': lastModified, 'Accept-Ranges': 'bytes' };
  const pre = checkPreconditions(ctx.req, node.etag, node.modifiedAt);
  if (pre === 'not-modified') return davStatus(ctx, 304, '', common);
  if (pre === 'failed') return davStatus(ctx, 412, 'Precondition failed', common);
  for (const [k, v] of Object.entries(common)) ctx.reply.header(k, v);
  const type = mimeOf(node.name);
  if (!showsInline(type))
    ctx.reply.header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(node.name)}`);
  let ranges = ifRangeHolds(ctx.req, node.etag, node.modifiedAt)
    ? parseRange(ctx.req.header('range'), node.size)
    : null;
  if (ranges && ranges.length === 0) {
    ctx.reply.header('Content-Range', `bytes */${node.size}`);
    return davStatus(ctx, 416, 'Requested range not satisfiable');
  }
  if (ranges === null || node.size === 0) ranges = null;
  const headOnly = ctx.req.method === 'HEAD';
  if (!ranges || ranges.length === 1) {
    const range = ranges?.[0] ?? { start: 0, end: node.size - 1 };
    const length = node.size === 0 ? 0 : range.end - range.start + 1;
    ctx.reply.header('Content-Type', type);
    if (ranges) ctx.reply.status(206).header('Content-Range', `bytes ${range.start}-${range.end}/${node.size}`);
    if (headOnly || length === 0) return ctx.reply.head(length);
    return streamParts(r, node, [{ range, preamble: null }], length, '');
  }
  const boundary = `spool_${Math.random().toString(36).slice(2)}`;
  const parts = ranges.map((range) => ({
    range,
    preamble: Buffer.from(
      `\r\n--${boundary}\r\nContent-Type: ${type}\r\nContent-Range: bytes ${range.start}-${range.end}/${node.size}\r\n\r\n`,
    ),
  }));
  const trailer = `\r\n--${boundary}--\r\n`;
  const total = parts.reduce(
    (n, p) => n + p.preamble.length + p.range.end - p.range.start + 1,
    Buffer.byteLength(trailer),
  );
  ctx.reply.status(206).header('Content-Type', `multipart/byteranges; boundary=${boundary}`);
  if (headOnly) return ctx.reply.head(total);
  return streamParts(r, node, parts, total, trailer);
}

async function streamParts(
  r: DavRequest,
  node: VfsNode,
  parts: { range: ByteRange; preamble: Buffer | null }[],
  total: number,
  trailer: string,
): Promise<void> {
  const { ctx, deps } = r;
  const ac = new AbortController();
  ctx.reply.onAborted(() => ac.abort());
  const client = { address: ctx.req.ip, userAgent: ctx.req.header('user-agent') };
  const handle = deps.handles.open(node.path, 'webdav', client, { offset: parts[0]?.range.start ?? 0 });
  let outcome: CloseReason = 'aborted';
  handle.onEnd(() => {
    ac.abort();
    ctx.reply.close(); // cut the connection: the client sees the body end short
  });
  const drain = socketDrain(ctx.reply);
  async function* body(): AsyncGenerator<Uint8Array> {
    for (const p of parts) {
      if (p.preamble) yield p.preamble;
      yield* handle.stream(p.range.start, p.range.end - p.range.start + 1, ac.signal, drain);
    }
    if (trailer) yield Buffer.from(trailer);
  }
  const it = body();
  try {
    // Pull the first bytes before any header is sent: a failure here is still a clean error status.
    const first = await it.next();
    if (ctx.reply.aborted) return;
    const rest: AsyncIterable<Uint8Array> = {
      async *[Symbol.asyncIterator]() {
        if (!first.done) yield first.value;
        yield* { [Symbol.asyncIterator]: () => it };
      },
    };
    await ctx.reply.stream(rest, total);
    if (!ctx.reply.aborted) outcome = 'done';
  } catch (err) {
    if (ac.signal.aborted || ctx.reply.aborted) return; // client went away: not an error
    outcome = 'error';
    if (!ctx.reply.sent) throw err;
    deps.logger.warn('stream failed mid-body, connection cut', { path: node.path, error: (err as Error).message });
    ctx.reply.close();
  } finally {
    ac.abort();
    const close = () => handle.close(outcome);
    void it.return(undefined).then(close, close);
  }
}

/**
 * Whether the client reads what its GET is sent: proven once its socket took more than a connection holds unread
 * (http/socket-hold.ts). Until then its reads keep only their first burst ahead of the socket (docs/streaming.md,
 * "What an unproven GET may fetch"); a slow client is only slow to prove, nothing is decided against it.
 */
function socketDrain(reply: { bodyTaken: number }): ClientDrain {
  const hold = socketHoldBytes();
  let proven = false;
  return { proven: () => (proven ||= reply.bodyTaken > hold) };
}

function listingPage(r: DavRequest, dir: VfsNode): void {
  const kids = r.deps.vfs.list(dir.path, { showCorrupted: showsCorrupted(r.ctx.req.header('x-show-corrupted')) });
  const rows = kids
    .map(
      (k) =>
        `<li><a href="${escapeXml(hrefOf(r.prefix, k.path, k.type === 'directory'))}">${escapeXml(k.name)}</a></li>`,
    )
    .join('');
  const html = `<!doctype html><title>${escapeXml(dir.path)}</title><h1>${escapeXml(dir.path)}</h1><ul>${rows}</ul>`;
  r.ctx.reply.status(200).send(html, 'text/html; charset=utf-8', r.ctx.req.method === 'HEAD');
}

export function assertFile(node: VfsNode): void {
  if (node.type !== 'file') throw new AppError('NOT_A_FILE', `Not a file: ${node.path}`);
}
