/** Where the `.strm` files of the strm strategy point: Spool's WebDAV, signed in with the webdav.user pair. */
export interface StrmTarget {
  /** import.strm_base_url, e.g. `http://spool:8080` (empty: `http://localhost:<webdav.port>`). */
  baseUrl: string;
  /** webdav.user / webdav.password: put in the URL so a player that reads .strm files can sign in. */
  user: string;
  password: string;
}

/** The one line a `.strm` file holds: the WebDAV URL of `vfsPath`, each segment percent-encoded. */
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
