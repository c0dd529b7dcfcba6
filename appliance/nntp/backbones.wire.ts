/**
 * The shipped hostname-to-backbone table (docs/nntp.md, "Routing"): resellers of one backbone serve the same
 * spool, so after a 430 from one member the others are not asked for that article. A wire file (the console offers
 * the names in the provider editor): constants only.
 */
export const BACKBONES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  omicron: ['newshosting.com', 'eweka.nl', 'easynews.com', 'usenetserver.com', 'tweaknews.eu', 'pureusenet.nl'],
  giganews: ['giganews.com'],
  usenetexpress: ['usenetexpress.com'],
  usenetfarm: ['usenet.farm'],
});

/** Every backbone name the `backbone` setting accepts. */
export const BACKBONE_NAMES: readonly string[] = Object.keys(BACKBONES);
