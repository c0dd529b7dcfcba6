/**
 * The extension a file's first bytes announce, for files posted under a random name with no PAR2 to tell the
 * real one. Only formats with an unambiguous signature in the first 16 KiB; '' when unsure (a wrong extension
 * would mislead players and arrs more than none).
 */
export function extensionFromMagic(head: Uint8Array): string {
  const b = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  const at = (offset: number, text: string) =>
    b.length >= offset + text.length && b.toString('latin1', offset, offset + text.length) === text;
  if (b.length >= 4 && b.readUInt32BE(0) === 0x1a45dfa3) return ebmlDocType(b) === 'webm' ? 'webm' : 'mkv';
  if (at(4, 'ftyp')) return isoBrand(b.toString('latin1', 8, 12));
  if (at(0, 'RIFF') && at(8, 'AVI ')) return 'avi';
  if (at(0, 'RIFF') && at(8, 'WAVE')) return 'wav';
  if (at(0, 'Rar!\x1a\x07')) return 'rar';
  if (at(0, '7z\xbc\xaf\x27\x1c')) return '7z';
  if (at(0, 'PK\x03\x04')) return 'zip';
  if (at(0, 'fLaC')) return 'flac';
  if (at(0, 'OggS')) return 'ogg';
  if (at(0, '%PDF-')) return 'pdf';
  if (at(0, 'ID3')) return 'mp3';
  if (b.length >= 4 && b.readUInt32BE(0) === 0x000001ba) return 'mpg';
  if (syncEvery(b, 0, 188)) return 'ts';
  if (syncEvery(b, 4, 192)) return 'm2ts';
  return '';
}

/** Matroska and WebM share EBML; the header's DocType (element 0x4282) tells them apart. */
function ebmlDocType(b: Buffer): string {
  const at = b.indexOf(Buffer.from([0x42, 0x82]), 4);
  if (at < 0 || at > 64 || at + 3 > b.length) return '';
  const size = b[at + 2]! & 0x7f; // a one-byte EBML size (0x80 | n) is what muxers write here
  return b.toString('latin1', at + 3, at + 3 + Math.min(size, 16));
}

/** ISO base media (ftyp box): the major brand says MP4, M4A/M4B audio, or QuickTime. */
function isoBrand(brand: string): string {
  if (brand === 'M4A ' || brand === 'M4B ') return brand === 'M4A ' ? 'm4a' : 'm4b';
  if (brand === 'qt  ') return 'mov';
  return 'mp4';
}

/** MPEG transport stream: the 0x47 sync byte at every packet start (188 bytes, or 192 in M2TS/BDAV). */
function syncEvery(b: Buffer, first: number, packet: number): boolean {
  const packets = Math.min(8, Math.floor((b.length - first) / packet));
  if (packets < 4) return false;
  for (let k = 0; k < packets; k++) if (b[first + k * packet] !== 0x47) return false;
  return true;
}
