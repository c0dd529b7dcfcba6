import { activeLock } from './properties.js';
import { parseTimeout } from './lock.manager.js';
import { DavError, ifLists, requireWritable } from './write.guard.js';
import { davStatus, hrefOf, type DavRequest } from './webdav.types.js';
import { DAV, child, parseXml, serialize } from './xml.js';
import { submittedTokens } from './if-header.js';

/**
 * LOCK: a new write lock from a DAV:lockinfo body, or a refresh (no body, the token in If:). Locking an unmapped
 * URL creates an empty resource, as RFC 4918 §7.3 asks, so Office-style clients can lock before they write.
 */
export async function handleLock(r: DavRequest): Promise<void> {
  const { ctx, deps } = r;
  const body = (await ctx.body()).toString('utf8');
  const timeout = parseTimeout(ctx.req.header('timeout'));
  if (!body.trim()) {
    const tokens = submittedTokens(ifLists(r));
    const lock = deps.locks.covering(r.path).find((l) => tokens.has(l.token));
    if (!lock) throw new DavError(412, 'No lock token of this resource was submitted for refresh');
    deps.locks.refresh(lock.token, timeout);
    return sendLock(r, 200, activeLock(lock), null);
  }
  const info = parseXml(body);
  if (info.ns !== DAV || info.local !== 'lockinfo') throw new DavError(400, 'Expected a DAV:lockinfo body');
  const scopeEl = child(info, DAV, 'lockscope');
  const scope = scopeEl && child(scopeEl, DAV, 'shared') ? 'shared' : 'exclusive';
  const typeEl = child(info, DAV, 'locktype');
  if (!typeEl || !child(typeEl, DAV, 'write')) throw new DavError(400, 'Only write locks are supported');
  const ownerEl = child(info, DAV, 'owner');
  const depthHeader = (ctx.req.header('depth') ?? 'infinity').trim().toLowerCase();
  if (depthHeader !== '0' && depthHeader !== 'infinity') throw new DavError(400, 'LOCK Depth must be 0 or infinity');
  const existed = deps.vfs.stat(r.path) !== undefined;
  if (!existed) {
    requireWritable(r, r.path);
    const parent = r.path.slice(0, r.path.lastIndexOf('/')) || '/';
    if (!deps.vfs.stat(parent)) throw new DavError(409, 'Parent collection does not exist');
  }
  const node = deps.vfs.stat(r.path);
  const lock = deps.locks.create({
    path: r.path,
    href: hrefOf(r.prefix, r.path, node?.type === 'directory'),
    depth: depthHeader === '0' ? '0' : 'infinity',
    scope,
    owner: ownerEl ? ownerXml(ownerEl) : '',
    timeoutSeconds: timeout,
  });
  if (!lock) throw new DavError(423, 'The resource is already locked');
  if (!existed) await deps.vfs.writeSidecar(r.path, Buffer.alloc(0));
  sendLock(r, existed ? 200 : 201, activeLock(lock), lock.token);
}

export function handleUnlock(r: DavRequest): void {
  const { ctx, deps } = r;
  const raw = ctx.req.header('lock-token')?.trim() ?? '';
  const token = raw.replace(/^<|>$/g, '');
  if (!token) throw new DavError(400, 'Lock-Token header is required');
  deps.vfs.requireNode(r.path);
  const lock = deps.locks.covering(r.path).find((l) => l.token === token);
  if (!lock) throw new DavError(409, 'That lock token does not lock this resource');
  deps.locks.release(token);
  davStatus(ctx, 204);
}

function sendLock(r: DavRequest, status: number, activelock: string, token: string | null): void {
  if (token) r.ctx.reply.header('Lock-Token', `<${token}>`);
  r.ctx.reply
    .status(status)
    .send(
      `<?xml version="1.0" encoding="utf-8"?>\n<D:prop xmlns:D="DAV:"><D:lockdiscovery>${activelock}</D:lockdiscovery></D:prop>`,
      'application/xml; charset=utf-8',
    );
}

/** The owner element re-serialised as DAV:owner with its content kept (clients compare it on discovery). */
function ownerXml(el: ReturnType<typeof parseXml>): string {
  const inner = el.children
    .map((c) => (typeof c === 'string' ? c.replace(/[<&]/g, (m) => (m === '<' ? '&lt;' : '&amp;')) : serialize(c)))
    .join('');
  return `<D:owner>${inner}</D:owner>`;
}
