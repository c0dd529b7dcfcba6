/**
 * The backup archive's container: POSIX ustar (regular files only), so `tar -tf` lists a backup and `tar -xf`
 * unpacks it by hand. Each entry is a 512-byte header (name, size, header checksum) and its bytes padded to 512;
 * two zero blocks end the archive.
 */
const BLOCK = 512;

/** The header of one regular file; names are at most 100 bytes (the archive's names are short and fixed). */
export function tarHeader(name: string, size: number, mtimeSeconds: number): Buffer {
  const nameBytes = Buffer.from(name, 'utf8');
  if (nameBytes.length > 100) throw new Error(`archive entry name too long: ${name}`);
  const h = Buffer.alloc(BLOCK);
  nameBytes.copy(h, 0);
  h.write(octal(0o644, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(mtimeSeconds, 12), 136, 'ascii');
  h.fill(0x20, 148, 156);
  h.write('0', 156, 'ascii');
  h.write('ustar\u000000', 257, 'ascii');
  h.write(octal(headerSum(h), 8), 148, 'ascii');
  return h;
}

/** Zero bytes that bring an entry of `size` bytes to a whole block. */
export function tarPadding(size: number): Buffer {
  return Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);
}

/** The two zero blocks that end an archive. */
export const TAR_END = Buffer.alloc(BLOCK * 2);

export interface TarEntry {
  name: string;
  data: Buffer;
}

/** Reads every entry of a whole archive; throws a plain sentence on a torn or damaged header. */
export function readTar(archive: Buffer): TarEntry[] {
  const entries: TarEntry[] = [];
  let at = 0;
  while (at + BLOCK <= archive.length) {
    const header = parseTarHeader(archive.subarray(at, at + BLOCK), at);
    if (!header) return entries;
    if (at + BLOCK + header.size > archive.length)
      throw new Error(`the archive is cut short: entry ${header.name} is incomplete`);
    entries.push({ name: header.name, data: archive.subarray(at + BLOCK, at + BLOCK + header.size) });
    at += BLOCK + header.size + tarPadding(header.size).length;
  }
  throw new Error('the archive is cut short: it has no end blocks');
}

/** One header block's name and size; null for an end block; throws when its checksum or size is wrong. */
export function parseTarHeader(h: Buffer, at: number): { name: string; size: number } | null {
  if (h.every((b) => b === 0)) return null;
  const stored = parseInt(h.subarray(148, 156).toString('ascii').replace(/\0/g, '').trim(), 8);
  if (stored !== headerSum(h)) throw new Error(`the archive is damaged: entry header at byte ${at} fails its checksum`);
  const name = h.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
  const size = parseInt(h.subarray(124, 136).toString('ascii').replace(/\0/g, '').trim(), 8);
  if (!Number.isSafeInteger(size) || size < 0) throw new Error(`the archive is damaged: entry ${name} has no size`);
  return { name, size };
}

export const TAR_BLOCK = BLOCK;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

/** Sum of the header's bytes with the checksum field read as eight spaces. */
function headerSum(h: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i]!;
  return sum;
}
