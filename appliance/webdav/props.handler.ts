import { AppError } from '../errors/app-error.js';
import type { VfsNode } from '../vfs/types.js';
import { LIVE_PROPS, isLive, liveProp, multistatus, propstat } from './properties.js';
import { davStatus, hrefOf, showsCorrupted, type DavRequest } from './webdav.types.js';
import { DAV, child, elements, emptyElement, escapeXml, parseXml, propKey, serialize } from './xml.js';
import { cachedAllprop, keepAllprop } from './response-cache.js';
import type { DavLock } from './lock.manager.js';
import { requireWritable } from './write.guard.js';

type Want = { kind: 'allprop' } | { kind: 'propname' } | { kind: 'prop'; keys: string[] };

/** PROPFIND with Depth 0 or 1. Depth infinity (or none, which means infinity) is refused with 403 as RFC 4918 allows. */
export async function handlePropfind(r: DavRequest): Promise<void> {
  const { ctx, deps } = r;
  const depth = (ctx.req.header('depth') ?? 'infinity').trim().toLowerCase();
  if (depth !== '0' && depth !== '1') {
    ctx.reply
      .status(403)
      .send(
        '<?xml version="1.0" encoding="utf-8"?>\n<D:error xmlns:D="DAV:"><D:propfind-finite-depth/></D:error>',
        'application/xml; charset=utf-8',
      );
    return;
  }
  const want = parseWant((await ctx.body()).toString('utf8'));
  const node = deps.vfs.requireNode(r.path);
  const parts = [
    MULTISTATUS_OPEN,
    utf8(
      responseFor(node, want, hrefOf(r.prefix, node.path, node.type === 'directory'), deps.locks.covering(node.path)),
    ),
  ];
  if (depth === '1' && node.type === 'directory') {
    const showCorrupted = showsCorrupted(ctx.req.header('x-show-corrupted'));
    parts.push(...listingParts(r, node.path, want, deps.vfs.list(node.path, { showCorrupted })));
  }
  parts.push(MULTISTATUS_CLOSE);
  // one Buffer copied once from the parts: no 10,000-entry string joined and then encoded again by the reply
  ctx.reply.status(207).send(Buffer.concat(parts), 'application/xml; charset=utf-8');
}

/**
 * The `<D:response>` of each listed entry as UTF-8. The folder's href is encoded once; each child adds its own
 * encoded name (a listing can hold 10,000 entries). Locks are looked up per entry only when one lies on or below the
 * folder or covers it; otherwise no entry has any. The allprop bytes of an unlocked entry are those built for it the
 * last time the same listing was asked (response-cache.ts); anything else is built now.
 */
function listingParts(r: DavRequest, dir: string, want: Want, kids: readonly VfsNode[]): Buffer[] {
  const base = hrefOf(r.prefix, dir, true);
  const anyLock = r.deps.locks.covering(dir).length > 0 || r.deps.locks.within(dir).length > 0;
  const parts: Buffer[] = new Array<Buffer>(kids.length);
  for (let i = 0; i < kids.length; i++) {
    const k = kids[i]!;
    const locks = anyLock ? r.deps.locks.covering(k.path) : NO_LOCKS;
    const cacheable = want.kind === 'allprop' && locks.length === 0;
    const hit = cacheable ? cachedAllprop(k, base) : undefined;
    if (hit) {
      parts[i] = hit;
      continue;
    }
    const href = base + encodeURIComponent(k.name) + (k.type === 'directory' ? '/' : '');
    const bytes = utf8(responseFor(k, want, href, locks));
    if (cacheable) keepAllprop(k, base, bytes);
    parts[i] = bytes;
  }
  return parts;
}

const NO_LOCKS: DavLock[] = [];
const utf8 = (s: string): Buffer => Buffer.from(s, 'utf8');
const [MULTISTATUS_OPEN, MULTISTATUS_CLOSE] = multistatus(['\0']).split('\0').map(utf8) as [Buffer, Buffer];

function parseWant(body: string): Want {
  if (!body.trim()) return { kind: 'allprop' };
  const root = parseXml(body);
  if (root.ns !== DAV || root.local !== 'propfind')
    throw new AppError('MALFORMED_BODY', 'Expected a DAV:propfind body');
  if (child(root, DAV, 'propname')) return { kind: 'propname' };
  const prop = child(root, DAV, 'prop');
  if (prop) return { kind: 'prop', keys: elements(prop).map((e) => propKey(e.ns, e.local)) };
  if (child(root, DAV, 'allprop')) return { kind: 'allprop' };
  throw new AppError('MALFORMED_BODY', 'PROPFIND body names no allprop, propname or prop');
}

function responseFor(node: VfsNode, want: Want, rawHref: string, locks: DavLock[]): string {
  const dead = node.deadProps ?? {};
  const found: string[] = [];
  const missing: string[] = [];
  if (want.kind === 'propname') {
    for (const k of [...LIVE_PROPS, ...Object.keys(dead)])
      if (!isLive(k) || liveProp(k, node, locks) !== null) found.push(emptyElement(k));
  } else {
    const keys = want.kind === 'allprop' ? [...LIVE_PROPS, ...Object.keys(dead)] : want.keys;
    for (const k of keys) {
      const v = isLive(k) ? liveProp(k, node, locks) : (dead[k] ?? null);
      if (v !== null) found.push(v);
      else if (want.kind === 'prop') missing.push(emptyElement(k));
    }
  }
  const href = escapeXml(rawHref);
  return `<D:response><D:href>${href}</D:href>${propstat(found, '200 OK')}${propstat(missing, '404 Not Found')}</D:response>`;
}

/** PROPPATCH: every set/remove in document order, all or nothing; live properties are protected (403). */
export async function handleProppatch(r: DavRequest): Promise<void> {
  const { ctx, deps } = r;
  const node = deps.vfs.requireNode(r.path);
  requireWritable(r, r.path);
  const root = parseXml((await ctx.body()).toString('utf8'));
  if (root.ns !== DAV || root.local !== 'propertyupdate')
    throw new AppError('MALFORMED_BODY', 'Expected a DAV:propertyupdate body');
  const changes: [string, string | null][] = [];
  for (const op of elements(root)) {
    if (op.ns !== DAV || (op.local !== 'set' && op.local !== 'remove')) continue;
    const prop = child(op, DAV, 'prop');
    for (const p of prop ? elements(prop) : [])
      changes.push([propKey(p.ns, p.local), op.local === 'set' ? serialize(p) : null]);
  }
  if (!changes.length) return davStatus(ctx, 400, 'PROPPATCH names no property');
  const protectedKeys = changes.filter(([k]) => isLive(k)).map(([k]) => k);
  const href = escapeXml(hrefOf(r.prefix, node.path, node.type === 'directory'));
  let stats: string;
  if (protectedKeys.length) {
    const others = changes.map(([k]) => k).filter((k) => !isLive(k));
    stats =
      propstat(protectedKeys.map(emptyElement), '403 Forbidden') +
      propstat(others.map(emptyElement), '424 Failed Dependency');
  } else {
    await deps.vfs.patchDeadProps(node.path, changes);
    stats = propstat([...new Set(changes.map(([k]) => k))].map(emptyElement), '200 OK');
  }
  ctx.reply
    .status(207)
    .send(multistatus([`<D:response><D:href>${href}</D:href>${stats}</D:response>`]), 'application/xml; charset=utf-8');
}
