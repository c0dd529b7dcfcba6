/** Container formats (docs/archives.md): pure parsers over bytes handed in through a ByteSource; no network. */
export * from './archive.types.js';
export { bufferSource } from './bytes.js';
export { RAR5_SIGNATURE, scanRar5Volume } from './rar5.js';
export { RAR4_SIGNATURE, scanRar4Volume } from './rar4.js';
export { decodeRar4Name } from './rar4-name.js';
export { assembleMembers } from './members.js';
export { safeMemberPath } from './member-path.js';
export { parseVolumeName, type VolumeName } from './volume-names.js';
export { missingSplitPieces, parseSplitName, type SplitName } from './split.js';
export { formatOf } from './signature.js';
export { SEVENZIP_SIGNATURE, scanSevenZip } from './sevenzip.js';
export { lzmaDecode } from './lzma.js';
export { KeyRing, type CipherCheck, type MemberCipher } from './crypto.js';
export { MAX_ARCHIVE_MEMBERS, tooManyMembers } from './limits.js';
export { setsByHeaders } from './volume-sets.js';
export { deriveSevenZipKey, type SevenZipKdf } from './sevenzip-key.js';
