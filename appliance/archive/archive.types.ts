/** What the archive parsers report. Plain data; offsets are bytes of the volume (or joined file) they came from. */

export type ArchiveFormat = 'rar5' | 'rar4' | '7z';

/** AES parameters of an encrypted member, enough to derive its key from a password and decrypt at any offset. */
export interface MemberEncryption {
  scheme: 'rar5-aes256' | 'rar3-aes128' | '7z-aes256';
  salt: string; // hex
  iv: string; // hex
  /** log2 of the KDF iterations (RAR5), or the 7z cycles power (2^n SHA-256 rounds). */
  kdfLog2?: number;
  /** RAR5 password check value (8 bytes, hex) when the archive carries one. */
  check?: string;
}

/** One file header of one volume: a whole member, or the piece of a split member this volume holds. */
export interface ArchiveEntry {
  /** Path inside the archive, '/'-separated, as the archive wrote it (checked later, never trusted). */
  name: string;
  /** The member's whole size once extracted. */
  unpackedSize: number;
  /** Where this piece's bytes start in the volume, and how many there are. */
  dataOffset: number;
  dataSize: number;
  /** Continues from the previous volume / in the next one. */
  splitBefore: boolean;
  splitAfter: boolean;
  directory: boolean;
  /** Stored without compression: its bytes in the volume are the file's bytes (or their ciphertext). */
  stored: boolean;
  /** Method as a person reads it ('store', 'rar5 method 3', 'LZMA'), for messages. */
  method: string;
  encryption?: MemberEncryption;
  /** CRC32 the header records (RAR 4: of the member's plain bytes on its last piece). */
  crc?: number;
}

/** What one volume's headers say. */
export interface VolumeScan {
  format: ArchiveFormat;
  /** 0-based volume number when the headers carry it (RAR5 main header, RAR4 end block); null otherwise. */
  volumeNumber: number | null;
  /** Whether the archive says it is a multi-volume set. */
  multiVolume: boolean;
  /** The end-of-archive block says another volume follows (null when not read). */
  moreVolumes: boolean | null;
  entries: ArchiveEntry[];
}

/** Bytes of one volume (or any file), fetched on demand by whoever provides it. The parsers never fetch. */
export interface ByteSource {
  readonly size: number;
  /** Exactly `length` bytes at `offset` (the caller keeps reads inside the file). */
  read(offset: number, length: number): Promise<Buffer>;
}

/** A member of an archive set: a file of the release, as byte ranges of the volumes that hold it. */
export interface ArchiveMember {
  name: string;
  size: number;
  /** Byte ranges (volume index in set order, offset, length) whose concatenation is the member's stored bytes. */
  extents: { volume: number; offset: number; length: number }[];
  encryption?: MemberEncryption;
  /** CRC32 of the member's plain bytes when the archive gives it (7z): verifies a password where no check value exists. */
  crc?: number;
}

/** Codes callers can act on (the SABnzbd helper forwards compressed releases to a fallback host). */
export type ArchiveErrorCode =
  | 'ARCHIVE_COMPRESSED'
  | 'ARCHIVE_PASSWORD_MISSING'
  | 'ARCHIVE_PASSWORD_WRONG'
  | 'ARCHIVE_INVALID'
  | 'ARCHIVE_VOLUME_MISSING'
  | 'ARCHIVE_UNSUPPORTED';

/** Input that cannot be streamed, worded for the person reading the queue. */
export class ArchiveError extends Error {
  override readonly name = 'ArchiveError';
  constructor(
    readonly code: ArchiveErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export const invalid = (message: string) => new ArchiveError('ARCHIVE_INVALID', message);
