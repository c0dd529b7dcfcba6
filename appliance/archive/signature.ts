import type { ArchiveFormat } from './archive.types.js';
import { RAR5_SIGNATURE } from './rar5.js';

const RAR4_SIGNATURE = Buffer.from([0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x00]);
const SEVENZIP_SIGNATURE = Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]);

/** The container format a file's first bytes announce, whatever the file is called (names may be obfuscated). */
export function formatOf(head: Uint8Array): ArchiveFormat | null {
  const b = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (b.subarray(0, 8).equals(RAR5_SIGNATURE)) return 'rar5';
  if (b.subarray(0, 7).equals(RAR4_SIGNATURE)) return 'rar4';
  if (b.subarray(0, 6).equals(SEVENZIP_SIGNATURE)) return '7z';
  return null;
}
