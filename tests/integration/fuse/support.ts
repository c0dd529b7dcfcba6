import { innProvider } from '../../support/inn/provider.js';
import type { InnServer } from '../../support/inn/server.js';
import { startServer, type TestServer } from '../../support/server.js';
import { DAV_PASS, DAV_USER } from '../webdav/support.js';

/**
 * The real server as the rclone mount tests have rclone mount it: login on, so rclone must sign in to the WebDAV
 * with the webdav.user pair (DAV_USER / DAV_PASS, the password obscured by the rcd); mount_path `mnt`; the test
 * INN as its provider.
 */
export function startServerForRclone(inn: InnServer, mnt: string): Promise<TestServer> {
  return startServer({
    config: {
      auth: { login_required: true },
      webdav: { user: DAV_USER, password: DAV_PASS },
      mount_path: mnt,
      providers: [innProvider(inn, { max_connections: 4 })],
    },
  });
}
