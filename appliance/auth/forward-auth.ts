import { AppError } from '../errors/app-error.js';
import type { Principal } from '../http/context.js';
import type { HttpRequest } from '../http/request.js';
import type { Logger } from '../logging/logger.js';
import { userPrincipal } from './basic-auth.js';
import type { UserRole } from './auth.wire.js';
import type { AuthSettings, UsersService } from './users.service.js';

/**
 * Forward auth (docs/security.md, "Forward auth"): a reverse proxy with single sign-on (Authelia, Authentik,
 * Traefik or Caddy forward auth) names the signed-in user in `auth.forward_user_header`. Believed only from a peer
 * in `auth.trusted_proxies` (req.viaTrustedProxy); from anywhere else the header is ignored. Resolves to undefined
 * when forward auth does not apply to this request (off, untrusted peer, no header).
 */
export class ForwardAuth {
  constructor(
    private readonly users: UsersService,
    private readonly settings: () => AuthSettings,
    private readonly logger: Logger,
  ) {}

  async identify(req: HttpRequest): Promise<Principal | undefined> {
    const { forwardUserHeader, forwardGroupsHeader } = this.settings();
    if (!forwardUserHeader || !req.viaTrustedProxy) return undefined;
    const raw = req.header(forwardUserHeader);
    if (raw === undefined) return undefined;
    const name = raw.trim();
    // Two headers arrive joined by ", " (http/request.ts); a name with a comma is as ambiguous.
    if (!name || name.includes(',') || /\p{Cc}/u.test(name)) {
      this.logger.warn('forwarded user refused', { header: forwardUserHeader, ip: req.ip, peer: req.peer });
      throw new AppError(
        'FORWARDED_USER_INVALID',
        `The proxy's ${forwardUserHeader} header must name exactly one user (got ${name ? 'several values' : 'none'})`,
      );
    }
    const groupsRaw = forwardGroupsHeader ? req.header(forwardGroupsHeader) : undefined;
    const mapped = groupsRaw === undefined ? undefined : this.roleOfGroups(groupsRaw);
    const user = await this.users.forwardedUser(name, {
      mapped,
      initial: this.settings().forwardDefaultRole ?? 'user',
    });
    return userPrincipal(user, 'forward');
  }

  /** The role the proxy's groups give: an administrator group wins, then a read-only group, else user. */
  private roleOfGroups(raw: string): UserRole {
    const { forwardAdminGroups = [], forwardReadonlyGroups = [] } = this.settings();
    const groups = raw
      .split(/[,|]/)
      .map((g) => g.trim())
      .filter((g) => g !== '');
    if (groups.some((g) => forwardAdminGroups.includes(g))) return 'admin';
    if (groups.some((g) => forwardReadonlyGroups.includes(g))) return 'read-only';
    return 'user';
  }
}
