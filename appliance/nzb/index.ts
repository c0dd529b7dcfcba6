/** The NZB domain's public surface: pure functions, no network. See docs/nzb.md. */
export { NzbParseError } from './errors.js';
export type { NzbParseErrorKind } from './errors.js';
export { DEFAULT_NZB_LIMITS, resolveLimits } from './limits.js';
export type { NzbLimits } from './limits.js';
export type { NzbDocument, NzbFile, NzbMeta, NzbSegment, YencFacts } from './types.js';
export { NzbStreamParser, parseNzb, parseNzbStream } from './parser.js';
export { classifyName, extensionOf, isMainKind } from './classify.js';
export type { FileKind } from './classify.js';
export { chooseName, cleanFileName, isObfuscatedName, nameFromSubject, scoreName } from './naming.js';
export type { NameCandidate, NameSource } from './naming.js';
export { FIRST_16K, matchPar2Description, md5First16k, parsePar2 } from './par2.js';
export type { Par2FileDescription, Par2Index } from './par2.js';
export { missingSplitPieces, parseSplitName } from '../archive/split.js';
export { groupNzb, par2Plan } from './grouping.js';
export type { FileEvidence, GroupedNzb, VirtualFile } from './grouping.js';
export { layoutFile, layoutFromFirstAndLast } from './layout.js';
export type { FileLayout, LayoutOutcome } from './layout.js';
export { escapeXml, layoutToNzbFiles, toNzbXml } from './export.js';
