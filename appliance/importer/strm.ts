/**
 * Where the `.strm` files of the strm strategy point: a stream link signed by Spool for that one file
 * (appliance/streamlinks, docs/security.md "Stream links") when `signedLink` is given, as the app gives it; else
 * Spool's WebDAV, signed in with the webdav.user pair.
 */
export interface StrmTarget {
  /** Makes a signed, read-only link to one file, at import.strm_base_url (the app wires the stream-link service). */
  signedLink?: (vfsPath: string) => Promise<string>;
  /** import.strm_base_url, e.g. `http://spool:8080` (empty: `http://localhost:<webdav.port>`). */
  baseUrl: string;
  /** webdav.user / webdav.password: put in the URL so a player that reads .strm files can sign in. */
  user: string;
  password: string;
}

/** The one line a `.strm` file holds: the file's signed stream link, else its WebDAV URL (renderStrm). */
export async function strmLine(target: StrmTarget, vfsPath: string): Promise<string> {
  return target.signedLink ? `${await target.signedLink(vfsPath)}\n` : renderStrm(target, vfsPath);
}

/** The one line a `.strm` file holds without signed links: the WebDAV URL of `vfsPath`, each segment percent-encoded. */
export function renderStrm(target: StrmTarget, vfsPath: string): string {
  const url = new URL(target.baseUrl);
  if (target.user && target.password) {
    url.username = encodeURIComponent(target.user);
    url.password = encodeURIComponent(target.password);
  }
  const base = url.pathname.replace(/\/+$/, '');
  url.pathname = `${base}/webdav${vfsPath.split('/').map(encodeURIComponent).join('/')}`;
  return `${url.toString()}\n`;
}
