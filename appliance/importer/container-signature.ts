/**
 * Whether a media file's first bytes are the container its extension names (docs/import.md, "Content checks").
 * Pure: the importer hands it the first bytes it reads of each exposed file (after decryption for a file inside an
 * encrypted archive). A fake release (an .exe or random bytes called .mkv) or a wrongly decrypted one fails its
 * import with the reason, so the arr grabs another instead of a player failing later.
 */

/** How many first bytes a check wants: three MPEG-TS packets of the M2TS kind (192 bytes) and a little more. */
export const SIGNATURE_BYTES = 1024;

type Container = 'matroska' | 'mp4' | 'avi' | 'mpeg-ts' | 'mpeg-ps' | 'ogg' | 'flv' | 'asf';

const NAMES: Record<Container, string> = {
  matroska: 'Matroska/WebM (EBML)',
  mp4: 'MP4/QuickTime',
  avi: 'AVI (RIFF)',
  'mpeg-ts': 'MPEG transport stream',
  'mpeg-ps': 'MPEG program stream',
  ogg: 'Ogg',
  flv: 'Flash video',
  asf: 'ASF/Windows Media',
};

/** The containers a file of each extension may hold. */
const BY_EXTENSION: Record<string, Container[]> = {
  mkv: ['matroska'],
  mk3d: ['matroska'],
  mka: ['matroska'],
  webm: ['matroska'],
  mp4: ['mp4'],
  m4v: ['mp4'],
  m4a: ['mp4'],
  mov: ['mp4'],
  '3gp': ['mp4'],
  avi: ['avi'],
  ts: ['mpeg-ts'],
  m2ts: ['mpeg-ts'],
  mts: ['mpeg-ts'],
  mpg: ['mpeg-ps', 'mpeg-ts'],
  mpeg: ['mpeg-ps', 'mpeg-ts'],
  vob: ['mpeg-ps'],
  ogg: ['ogg'],
  ogv: ['ogg'],
  ogm: ['ogg'],
  flv: ['flv'],
  wmv: ['asf'],
  wma: ['asf'],
  asf: ['asf'],
};

const EBML = [0x1a, 0x45, 0xdf, 0xa3];
const ASF_GUID = [0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11, 0xa6, 0xd9, 0x00, 0xaa, 0x00, 0x62, 0xce, 0x6c];
/** ISO base media boxes a file may start with (`ftyp` mostly; old QuickTime files start with others). */
const MP4_BOXES = new Set(['ftyp', 'moov', 'mdat', 'free', 'wide', 'skip', 'pnot', 'styp']);

const startsWith = (b: Uint8Array, bytes: readonly number[], at = 0) => bytes.every((x, i) => b[at + i] === x);
const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to));

/** Sync bytes 0x47 every `packet` bytes from `first`, as many packets as the head holds (at least one). */
function tsSync(b: Uint8Array, first: number, packet: number): boolean {
  if (b.length <= first) return false;
  for (let at = first; at < b.length && at < first + 3 * packet; at += packet) if (b[at] !== 0x47) return false;
  return true;
}

const TESTS: Record<Container, (b: Uint8Array) => boolean> = {
  matroska: (b) => startsWith(b, EBML),
  mp4: (b) => b.length >= 8 && MP4_BOXES.has(ascii(b, 4, 8)),
  avi: (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'AVI ',
  'mpeg-ts': (b) => tsSync(b, 0, 188) || tsSync(b, 4, 192),
  'mpeg-ps': (b) => startsWith(b, [0x00, 0x00, 0x01, 0xba]) || startsWith(b, [0x00, 0x00, 0x01, 0xb3]),
  ogg: (b) => ascii(b, 0, 4) === 'OggS',
  flv: (b) => ascii(b, 0, 3) === 'FLV',
  asf: (b) => startsWith(b, ASF_GUID),
};

/** Other things a file may turn out to be, to say what was found instead. */
const OTHERS: [string, (b: Uint8Array) => boolean][] = [
  ['a Windows executable (MZ)', (b) => ascii(b, 0, 2) === 'MZ'],
  ['an ELF executable', (b) => startsWith(b, [0x7f, 0x45, 0x4c, 0x46])],
  ['a ZIP archive', (b) => startsWith(b, [0x50, 0x4b, 0x03, 0x04])],
  ['a RAR archive', (b) => ascii(b, 0, 4) === 'Rar!'],
  ['a 7z archive', (b) => startsWith(b, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])],
  ['a PDF document', (b) => ascii(b, 0, 4) === '%PDF'],
  ['zeros', (b) => b.length > 0 && b.every((x) => x === 0)],
  ['text', (b) => b.length > 0 && b.every((x) => x === 9 || x === 10 || x === 13 || (x >= 32 && x < 127))],
];

/** What the first bytes look like, for the reason of a mismatch. */
export function describeHead(head: Uint8Array): string {
  const b = head.subarray(0, 64);
  for (const c of Object.keys(TESTS) as Container[]) if (TESTS[c](head)) return NAMES[c];
  for (const [name, test] of OTHERS) if (test(b)) return name;
  const hex = [...head.subarray(0, 8)].map((x) => x.toString(16).padStart(2, '0')).join(' ');
  return `unknown bytes ${hex}`;
}

/** The extension of a file name, lower-cased ('' when none). */
function extensionOf(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/** Whether a file of this name is checked (a media container extension). */
export function isCheckedMedia(name: string): boolean {
  return extensionOf(name) in BY_EXTENSION;
}

/**
 * Null when the head is what the file's extension names (or the extension is not a media container checked here),
 * else the reason: "content does not match .mkv (found a Windows executable (MZ))".
 */
export function containerMismatch(name: string, head: Uint8Array): string | null {
  const ext = extensionOf(name);
  const allowed = BY_EXTENSION[ext];
  if (!allowed || allowed.some((c) => TESTS[c](head))) return null;
  return `content does not match .${ext} (found ${describeHead(head)})`;
}
