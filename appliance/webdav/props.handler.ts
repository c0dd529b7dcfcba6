import { AppError } from '../errors/app-error.js';
import type { VfsNode } from '../vfs/types.js';
import { LIVE_PROPS, allpropResponse, isLive, liveProp, multistatus, propstat } from './properties.js';
import { davStatus, hrefOf, showsCorrupted, type DavRequest } from './webdav.types.js';
import {
  DAV,
  child,
  elements,
  emptyElement,
  escapeEncodedXml,
  escapeXml,
  parseXml,
  propKey,
  serialize,
} from './xml.js';
import { AnswerEntries, forgetAllprop, keptAllprop } from './response-cache.js';
import type { DavLock } from './lock.manager.js';
import { requireWritable } from './write.guard.js';
import { Utf8Writer } from './utf8-writer.js';

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
  const kids =
    depth === '1' && node.type === 'directory'
      ? deps.vfs.list(node.path, { showCorrupted: showsCorrupted(ctx.req.header('x-show-corrupted')) })
      : [];
  const out = new Utf8Writer(BYTES_PER_ENTRY * (kids.length + 1));
  out.write(MULTISTATUS_OPEN);
  out.write(
    responseFor(node, want, hrefOf(r.prefix, node.path, node.type === 'directory'), deps.locks.covering(node.path)),
  );
  const entries = kids.length > 0 ? writeListing(r, out, node.path, want, kids) : undefined;
  out.write(MULTISTATUS_CLOSE);
  const answer = out.bytes();
  entries?.seal(answer);
  entries?.keepAnswer();
  // one Buffer, each entry encoded into it once: no 10,000-entry string joined and then encoded again by the reply
  ctx.reply.status(207).send(answer, 'application/xml; charset=utf-8');
}

/** About what one allprop entry of a listing takes (a name of ~40 characters): the answer's first allocation. */
const BYTES_PER_ENTRY = 900;

/**
 * The `<D:response>` of each listed entry, written into `out`. The folder's href is encoded and escaped once; each
 * child adds its own encoded name (a listing can hold 10,000 entries). Locks are looked up per entry only when one
 * lies on or below the folder or covers it; otherwise no entry has any. The allprop bytes of an unlocked entry are
 * copied from the answer they were last sent in (response-cache.ts); anything else is built now, an unlocked entry
 * with no dead property as one string (properties.ts `allpropResponse`). Returns the allprop entries written, to
 * be kept once the answer is whole.
 */
function writeListing(
  r: DavRequest,
  out: Utf8Writer,
  dir: string,
  want: Want,
  kids: readonly VfsNode[],
): AnswerEntries | undefined {
  const base = hrefOf(r.prefix, dir, true);
  const escapedBase = escapeXml(base);
  const anyLock = r.deps.locks.covering(dir).length > 0 || r.deps.locks.within(dir).length > 0;
  const entries = want.kind === 'allprop' ? new AnswerEntries(base) : undefined;
  for (const k of kids) {
    const locks = anyLock ? r.deps.locks.covering(k.path) : NO_LOCKS;
    if (!entries || locks.length > 0) {
      if (entries) forgetAllprop(k);
      out.write(responseFor(k, want, base + hrefName(k), locks));
      continue;
    }
    const start = out.length;
    const hit = keptAllprop(k, base);
    if (hit) out.copy(hit.answer, hit.start, hit.end);
    else
      out.write(
        k.deadProps
          ? responseFor(k, want, base + hrefName(k), locks)
          : allpropResponse(k, escapedBase + escapeEncodedXml(hrefName(k))),
      );
    entries.add(k, start, out.length, !hit);
  }
  return entries;
}

/** A child's last href segment: its name percent-encoded, a folder's with its slash. */
function hrefName(k: VfsNode): string {
  return encodeURIComponent(k.name) + (k.type === 'directory' ? '/' : '');
}

const NO_LOCKS: DavLock[] = [];
const [MULTISTATUS_OPEN, MULTISTATUS_CLOSE] = multistatus(['\0']).split('\0') as [string, string];

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
