/**
 * The shipped hostname-to-backbone table (docs/nntp.md, "Routing"): resellers of one backbone serve the same
 * spool, so after a 430 from one member the others are not asked for that article. A provider's own `backbone`
 * setting overrides it; a host the table does not know belongs to no group (asked on its own).
 */
import { BACKBONES } from './backbones.wire.js';

export { BACKBONES, BACKBONE_NAMES } from './backbones.wire.js';

/** The backbone of a host from the table (the host itself, or a name under one of the listed domains). */
export function backboneOfHost(host: string): string | undefined {
  const h = host.trim().toLowerCase().replace(/\.$/, '');
  for (const [name, domains] of Object.entries(BACKBONES)) {
    if (domains.some((d) => h === d || h.endsWith(`.${d}`))) return name;
  }
  return undefined;
}
