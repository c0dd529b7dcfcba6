import { randomBytes } from 'node:crypto';

/**
 * Test films: random bytes that start as the container their name says, so the importer's check of media headers
 * (import.verify_media_headers, on by default; appliance/importer/container-signature.ts) passes them as it passes
 * a real release. Only the first bytes are a container's; the rest stays random (nothing here plays).
 */

/** The first bytes of each container the check knows, by the extension that names it. */
const HEADS: Record<string, Buffer> = {
  // EBML header element ID, then a size of 31 and the EBMLVersion element (1)
  matroska: Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01]),
  // an ISO base media `ftyp` box of 24 bytes: brand isom, minor 512, compatible isom and mp41
  mp4: Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypisom\0\0\x02\0isommp41', 'latin1')]),
  avi: Buffer.concat([Buffer.from('RIFF', 'latin1'), Buffer.from([0, 0, 0, 0]), Buffer.from('AVI LIST', 'latin1')]),
};

const CONTAINER: Record<string, keyof typeof HEADS> = {
  mkv: 'matroska',
  mk3d: 'matroska',
  mka: 'matroska',
  webm: 'matroska',
  mp4: 'mp4',
  m4v: 'mp4',
  mov: 'mp4',
  avi: 'avi',
};

/** MPEG transport stream: a 0x47 sync byte every 188 bytes (the check looks at the first three packets). */
function withTsSync(bytes: Buffer): Buffer {
  for (let at = 0; at < bytes.length; at += 188) bytes[at] = 0x47;
  return bytes;
}

/** The container head for a file of this name's extension (undefined: not a checked media name). */
function headFor(name: string): ((b: Buffer) => Buffer) | undefined {
  const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  if (ext === 'ts' || ext === 'm2ts' || ext === 'mts') return withTsSync;
  const container = CONTAINER[ext];
  if (!container) return undefined;
  const head = HEADS[container]!;
  return (b) => (head.copy(b, 0, 0, Math.min(head.length, b.length)), b);
}

/** `size` bytes of film named `name` (default .mkv): its container's first bytes, then random ones. */
export function film(size: number, name = 'film.mkv'): Buffer {
  const bytes = randomBytes(size);
  return headFor(name)?.(bytes) ?? bytes;
}
