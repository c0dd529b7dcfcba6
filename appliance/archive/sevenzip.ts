import { crc32 } from 'node:zlib';
import { readUpTo } from './bytes.js';
import { ArchiveError, invalid, type ArchiveMember, type ByteSource } from './archive.types.js';
import type { KeyRing } from './crypto.js';
import { lzmaDecode, MAX_LZMA_OUTPUT } from './lzma.js';
import { AES, isEncryptedHeader, openEncryptedHeader, sevenZipAes } from './sevenzip-crypt.js';
import { safeMemberPath } from './member-path.js';
import { MAX_ARCHIVE_MEMBERS, tooManyMembers } from './limits.js';
import {
  HeaderCursor,
  Id,
  readFilesInfo,
  readStreamsInfo,
  type FileRecord,
  type Folder,
  type StreamsInfo,
} from './sevenzip-header.js';

/**
 * 7z archives (7-Zip's 7zFormat.txt): a 32-byte signature header at the start points at the header at the end,
 * which 7-Zip compresses (LZMA) even with `-mx0`. So a 7z costs the first article (signature header) and the
 * article(s) holding the packed header near the end; the member data between is never read. Only folders of the
 * Copy method can be streamed; anything else is a compressed archive. Split `.7z.001` pieces are joined into one
 * file before this (archive/split.ts), so offsets here are of the whole archive.
 */
export const SEVENZIP_SIGNATURE = Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]);

const COPY = '00';
const LZMA = '030101';
const METHODS: Record<string, string> = {
  [COPY]: 'Copy',
  [LZMA]: 'LZMA',
  '21': 'LZMA2',
  '030401': 'PPMD',
  '040108': 'Deflate',
  '040202': 'BZip2',
  '03030103': 'BCJ',
  [AES]: 'AES-256',
};
const methodName = (f: Folder) => f.coders.map((c) => METHODS[c.id] ?? `method ${c.id}`).join('+');

/** `keys` opens a header encrypted with `7z -mhe` (AES-256 over the LZMA-packed header). */
export async function scanSevenZip(source: ByteSource, name: string, keys?: KeyRing): Promise<ArchiveMember[]> {
  const start = await readUpTo(source, 0, 32);
  if (start.length < 32 || !start.subarray(0, 6).equals(SEVENZIP_SIGNATURE))
    throw invalid(`${name} is not a 7z archive`);
  if (start[6] !== 0) throw invalid(`${name} is a 7z archive of format version ${start[6]}.${start[7]}, not 0.x`);
  if (crc32(start.subarray(12, 32)) !== start.readUInt32LE(8))
    throw invalid(`${name}: the 7z start header fails its CRC check`);
  const nextOffset = start.readBigUInt64LE(12);
  const nextSize = start.readBigUInt64LE(20);
  const headerPos = 32n + nextOffset;
  if (nextSize === 0n) throw invalid(`${name}: the 7z archive has no header (empty or unfinished)`);
  if (headerPos + nextSize > BigInt(source.size) || nextSize > BigInt(MAX_LZMA_OUTPUT)) {
    throw new ArchiveError(
      'ARCHIVE_VOLUME_MISSING',
      `${name}: the 7z header lies at byte ${headerPos} but the archive has ${source.size} bytes (a volume missing?)`,
    );
  }
  let header = await source.read(Number(headerPos), Number(nextSize));
  if (crc32(header) !== start.readUInt32LE(28)) throw invalid(`${name}: the 7z header fails its CRC check`);
  for (let round = 0; header[0] === Id.EncodedHeader; round++) {
    if (round > 2) throw invalid(`${name}: the 7z header is encoded more than twice`);
    header = await decodeHeader(source, header, name, keys);
  }
  const c = new HeaderCursor(header, 0, header.length, `the 7z header of ${name}`);
  c.expect(Id.Header, 'the header');
  let streams: StreamsInfo | undefined;
  let files: FileRecord[] = [];
  for (;;) {
    const id = c.u8();
    if (id === Id.End) break;
    if (id === Id.ArchiveProperties) skipArchiveProperties(c);
    else if (id === Id.AdditionalStreamsInfo) readStreamsInfo(c);
    else if (id === Id.MainStreamsInfo) streams = readStreamsInfo(c);
    else if (id === Id.FilesInfo) files = readFilesInfo(c);
    else throw invalid(`${name}: the 7z header has an unknown property ${id}`);
  }
  if (files.length > MAX_ARCHIVE_MEMBERS) throw tooManyMembers(name, files.length);
  return members(files, streams, source.size, name);
}

async function decodeHeader(source: ByteSource, encoded: Buffer, name: string, keys?: KeyRing): Promise<Buffer> {
  const c = new HeaderCursor(encoded, 1, encoded.length, `the encoded 7z header of ${name}`);
  const info = readStreamsInfo(c);
  const folder = info.folders[0];
  const packSize = info.packSizes[0];
  const sealed = folder !== undefined && isEncryptedHeader(folder);
  if (!folder || packSize === undefined || (folder.coders.length !== 1 && !sealed)) {
    throw invalid(
      `${name}: the 7z header is packed in a way 7-Zip does not write (${folder ? methodName(folder) : 'no folder'})`,
    );
  }
  const at = 32 + info.packPos;
  if (at + packSize > source.size) throw invalid(`${name}: the packed 7z header lies past the end of the archive`);
  const packed = await source.read(at, packSize);
  if (sealed) return openEncryptedHeader(packed, folder, name, keys);
  const coder = folder.coders[0]!;
  if (coder.id === LZMA) return lzmaDecode(coder.properties, packed, folder.unpackSizes[0] ?? 0);
  if (coder.id === COPY) return packed;
  throw invalid(`${name}: the 7z header is packed with ${methodName(folder)}`);
}

function skipArchiveProperties(c: HeaderCursor): void {
  for (let type = c.u8(); type !== 0; type = c.u8()) c.at += c.number();
}

/** Files with data map to the folders' substreams in order; a Copy folder's bytes are the files' bytes. */
function members(
  files: FileRecord[],
  streams: StreamsInfo | undefined,
  streamsEnd: number,
  name: string,
): ArchiveMember[] {
  const out: ArchiveMember[] = [];
  const withData = files.filter((f) => f.hasStream);
  const folders = streams?.folders ?? [];
  let file = 0;
  let packIndex = 0;
  let packAt = 32 + (streams?.packPos ?? 0);
  folders.forEach((folder, i) => {
    const subs = streams!.substreams[i]!.sizes;
    const crcs = streams!.substreams[i]!.crcs;
    const packSize = streams!.packSizes.slice(packIndex, packIndex + folder.packedStreams).reduce((a, b) => a + b, 0);
    const stored = folder.coders.length === 1 && folder.coders[0]!.id === COPY;
    // AES alone, or AES and Copy bound together (7-Zip writes either for -mx0 -p)
    const aes = folder.coders.filter((k) => k.id === AES);
    const sealed = aes.length === 1 && folder.coders.every((k) => k.id === AES || k.id === COPY);
    if (sealed && subs.length > 0) {
      // 7-Zip gives each file of a -mx0 -p archive a folder of its own (AES alone, Copy implied)
      if (subs.length !== 1)
        throw new ArchiveError('ARCHIVE_UNSUPPORTED', `${name}: several files share one encrypted 7z folder`);
      const f = withData[file++];
      if (!f) throw invalid(`${name}: the 7z header has more streams than files`);
      const size = subs[0]!;
      if (packSize !== Math.ceil(size / 16) * 16)
        throw invalid(`${name}: ${f.name} has ${packSize} encrypted bytes for ${size}`);
      if (packAt + packSize > streamsEnd)
        throw invalid(`${name}: a 7z folder lies past the end of the archive (a piece missing?)`);
      out.push({
        name: safeMemberPath(f.name),
        size,
        extents: packSize ? [{ volume: 0, offset: packAt, length: packSize }] : [],
        encryption: sevenZipAes(aes[0]!.properties, name),
        ...((folder.crc ?? crcs?.[0]) !== undefined ? { crc: folder.crc ?? crcs![0] } : {}),
      });
      packIndex += folder.packedStreams;
      packAt += packSize;
      return;
    }
    if (subs.length > 0 && !stored) {
      const first = withData[file]?.name ?? `folder ${i + 1}`;
      throw new ArchiveError(
        'ARCHIVE_COMPRESSED',
        `compressed archive: cannot be streamed (${first} is packed with ${methodName(folder)})`,
      );
    }
    if (stored && (folder.unpackSizes[0] ?? 0) !== packSize)
      throw invalid(`${name}: a stored 7z folder unpacks to another size than it holds`);
    if (packAt + packSize > streamsEnd)
      throw invalid(`${name}: a 7z folder lies past the end of the archive (a piece missing?)`);
    let at = packAt;
    for (const length of subs) {
      const f = withData[file++];
      if (!f) throw invalid(`${name}: the 7z header has more streams than files`);
      if (!f.directory)
        out.push({
          name: safeMemberPath(f.name),
          size: length,
          extents: length ? [{ volume: 0, offset: at, length }] : [],
        });
      at += length;
    }
    packIndex += folder.packedStreams;
    packAt += packSize;
  });
  if (file !== withData.length) throw invalid(`${name}: the 7z header lists more files with data than streams`);
  for (const f of files)
    if (!f.hasStream && !f.directory) out.push({ name: safeMemberPath(f.name), size: 0, extents: [] });
  return out;
}
