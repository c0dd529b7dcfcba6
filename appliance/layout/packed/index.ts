/** The stored form of a layout: columns, message-ids against their template (docs/architecture.md, "The one idea"). */
export { decodeLayout, encodeLayout, isPackedLayout, MAX_SEGMENTS } from './layout-codec.js';
export { LayoutCodecError } from './bytes.js';
