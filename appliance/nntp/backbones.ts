/**
 * The shipped hostname-to-backbone table (docs/nntp.md, "Routing"): resellers of one backbone serve the same
 * spool, so after a 430 from one member the others are not asked for that article. A provider's own `backbone`
 * setting overrides it; a host the table does not know belongs to no group (asked on its own).
 */
export const BACKBONES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  omicron: ['newshosting.com', 'eweka.nl', 'easynews.com', 'usenetserver.com', 'tweaknews.eu', 'pureusenet.nl'],
  giganews: ['giganews.com'],
  usenetexpress: ['usenetexpress.com'],
  usenetfarm: ['usenet.farm'],
});

/** Every backbone name the `backbone` setting accepts. */
export const BACKBONE_NAMES: readonly string[] = Object.keys(BACKBONES);

/** The backbone of a host from the table (the host itself, or a name under one of the listed domains). */
export function backboneOfHost(host: string): string | undefined {
  const h = host.trim().toLowerCase().replace(/\.$/, '');
  for (const [name, domains] of Object.entries(BACKBONES)) {
    if (domains.some((d) => h === d || h.endsWith(`.${d}`))) return name;
  }
  return undefined;
}
