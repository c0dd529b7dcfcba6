import type { VfsNode } from '../vfs/types.js';
import type { DavLock } from './lock.manager.js';
import { mimeOf } from './mime.js';
import { DAV, escapeEtagXml, escapeXml, propKey } from './xml.js';

/** Live properties we compute from the node; everything else is a dead property stored by PROPPATCH. */
export const LIVE_PROPS = [
  'creationdate',
  'displayname',
  'getcontentlength',
  'getcontenttype',
  'getetag',
  'getlastmodified',
  'resourcetype',
  'supportedlock',
  'lockdiscovery',
].map((n) => propKey(DAV, n));

const LIVE = new Set(LIVE_PROPS);

export function isLive(key: string): boolean {
  return LIVE.has(key);
}

/** The same for every resource: built once, not per entry of a listing. */
const SUPPORTED_LOCK =
  '<D:supportedlock>' +
  ['exclusive', 'shared']
    .map((s) => `<D:lockentry><D:lockscope><D:${s}/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>`)
    .join('') +
  '</D:supportedlock>';

/** The XML of one live property, or null when it does not apply (e.g. content length of a collection). */
export function liveProp(key: string, node: VfsNode, locks: DavLock[]): string | null {
  const dir = node.type === 'directory';
  switch (key) {
    case '{DAV:}creationdate':
      return `<D:creationdate>${isoDate(node.createdAt)}</D:creationdate>`;
    case '{DAV:}displayname':
      return `<D:displayname>${escapeXml(node.name)}</D:displayname>`;
    case '{DAV:}getcontentlength':
      return dir ? null : `<D:getcontentlength>${node.size}</D:getcontentlength>`;
    case '{DAV:}getcontenttype':
      return dir ? null : `<D:getcontenttype>${mimeOf(node.name)}</D:getcontenttype>`;
    case '{DAV:}getetag':
      return `<D:getetag>${escapeEtagXml(node.etag)}</D:getetag>`;
    case '{DAV:}getlastmodified':
      return `<D:getlastmodified>${httpDate(node.modifiedAt)}</D:getlastmodified>`;
    case '{DAV:}resourcetype':
      return dir ? '<D:resourcetype><D:collection/></D:resourcetype>' : '<D:resourcetype/>';
    case '{DAV:}supportedlock':
      return SUPPORTED_LOCK;
    case '{DAV:}lockdiscovery':
      return locks.length ? `<D:lockdiscovery>${locks.map(activeLock).join('')}</D:lockdiscovery>` : NO_LOCKS;
    default:
      return null;
  }
}

/**
 * A date formatter that remembers its last answer: the files of one job share their creation and modification
 * times, so a cold listing of 10,000 of them formats a handful of dates, not 20,000.
 */
function lastDateMemo(format: (ms: number) => string): (ms: number) => string {
  let lastMs = NaN;
  let last = '';
  return (ms) => {
    if (ms !== lastMs) {
      last = format(ms);
      lastMs = ms;
    }
    return last;
  };
}

const isoDate = lastDateMemo((ms) => new Date(ms).toISOString());
const httpDate = lastDateMemo((ms) => new Date(ms).toUTCString());

const NO_LOCKS = '<D:lockdiscovery></D:lockdiscovery>';

/** What follows the last per-node property of an allprop answer with no lock, by node type. */
const ALLPROP_TAIL = {
  directory: `<D:resourcetype><D:collection/></D:resourcetype>${SUPPORTED_LOCK}${NO_LOCKS}`,
  file: `<D:resourcetype/>${SUPPORTED_LOCK}${NO_LOCKS}`,
};
const PROPSTAT_OK_CLOSE = '</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>';

/**
 * The allprop `<D:response>` of a node with no lock and no dead property, `href` already escaped: the same bytes
 * as the general path (each of LIVE_PROPS through `liveProp` in one 200 propstat; props.handler.ts) built as one
 * string, so a cold listing of 10,000 entries makes one string per entry, not an array of ten and their joins.
 */
export function allpropResponse(node: VfsNode, href: string): string {
  const file = node.type !== 'directory';
  const sized = file
    ? `<D:getcontentlength>${node.size}</D:getcontentlength><D:getcontenttype>${mimeOf(node.name)}</D:getcontenttype>`
    : '';
  return (
    `<D:response><D:href>${href}</D:href><D:propstat><D:prop>` +
    `<D:creationdate>${isoDate(node.createdAt)}</D:creationdate>` +
    `<D:displayname>${escapeXml(node.name)}</D:displayname>${sized}` +
    `<D:getetag>${escapeEtagXml(node.etag)}</D:getetag>` +
    `<D:getlastmodified>${httpDate(node.modifiedAt)}</D:getlastmodified>` +
    (file ? ALLPROP_TAIL.file : ALLPROP_TAIL.directory) +
    PROPSTAT_OK_CLOSE
  );
}

export function activeLock(l: DavLock): string {
  return (
    `<D:activelock><D:locktype><D:write/></D:locktype><D:lockscope><D:${l.scope}/></D:lockscope>` +
    `<D:depth>${l.depth === 'infinity' ? 'infinity' : '0'}</D:depth>${l.owner}` +
    `<D:timeout>Second-${Math.max(0, Math.round((l.expiresAt - Date.now()) / 1000))}</D:timeout>` +
    `<D:locktoken><D:href>${escapeXml(l.token)}</D:href></D:locktoken>` +
    `<D:lockroot><D:href>${escapeXml(l.href)}</D:href></D:lockroot></D:activelock>`
  );
}

export function multistatus(responses: string[]): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:">${responses.join('')}</D:multistatus>`;
}

export function propstat(props: string[], status: string): string {
  return props.length
    ? `<D:propstat><D:prop>${props.join('')}</D:prop><D:status>HTTP/1.1 ${status}</D:status></D:propstat>`
    : '';
}
