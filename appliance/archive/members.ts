import { ArchiveError, invalid, type ArchiveEntry, type ArchiveMember, type VolumeScan } from './archive.types.js';
import { safeMemberPath } from './member-path.js';

/**
 * The members of an archive set from its volumes' scans, in set order: each member's pieces must follow each
 * other volume by volume (a piece that continues in the next volume is the last thing in its volume, and the next
 * volume starts with the rest). Anything else means a volume is missing or out of place, and fails: a wrong order
 * would serve wrong bytes.
 */
export function assembleMembers(scans: readonly VolumeScan[], volumeNames: readonly string[]): ArchiveMember[] {
  checkVolumeNumbers(scans, volumeNames);
  const members: ArchiveMember[] = [];
  let open: { entry: ArchiveEntry; member: ArchiveMember; stored: number } | undefined;
  scans.forEach((scan, v) => {
    const volume = volumeNames[v]!;
    for (const entry of scan.entries) {
      if (entry.splitBefore) {
        if (!open || open.entry.name !== entry.name) {
          throw new ArchiveError(
            'ARCHIVE_VOLUME_MISSING',
            `${volume} continues ${entry.name} from a volume that is not in the NZB (or is out of order)`,
          );
        }
      } else if (open) {
        throw cutShort(open.entry.name, volume);
      }
      if (!entry.splitBefore) {
        if (entry.directory) continue;
        if (!entry.stored) throw compressed(entry);
        const member: ArchiveMember = {
          name: safeMemberPath(entry.name),
          size: entry.unpackedSize,
          extents: [],
          ...(entry.encryption ? { encryption: entry.encryption } : {}),
        };
        open = { entry, member, stored: 0 };
        members.push(member);
      }
      const o = open!;
      if (entry.dataSize > 0) o.member.extents.push({ volume: v, offset: entry.dataOffset, length: entry.dataSize });
      o.stored += entry.dataSize;
      if (!entry.splitAfter) {
        finish(o.member, o.stored, o.entry, entry);
        open = undefined;
      }
    }
  });
  if (open) {
    throw new ArchiveError(
      'ARCHIVE_VOLUME_MISSING',
      `${open.entry.name} continues past the last volume (${volumeNames.at(-1)}): a volume is missing from the NZB`,
    );
  }
  const last = scans.at(-1);
  if (last?.moreVolumes) {
    throw new ArchiveError(
      'ARCHIVE_VOLUME_MISSING',
      `${volumeNames.at(-1)} says more volumes follow, but the NZB has none`,
    );
  }
  return members;
}

function finish(member: ArchiveMember, stored: number, entry: ArchiveEntry, last: ArchiveEntry): void {
  if (last.crc !== undefined) member.crc = last.crc;
  if (member.size < 0) member.size = stored; // size unknown when archived (stdin): a stored member is its data
  if (member.encryption) {
    // AES-CBC pads to 16 bytes: the stored bytes are the size rounded up
    if (stored !== Math.ceil(member.size / 16) * 16 && !(member.size === 0 && stored === 0)) {
      throw invalid(`${entry.name}: ${stored} encrypted bytes cannot hold ${member.size} bytes`);
    }
  } else if (stored !== member.size) {
    throw invalid(`${entry.name}: the volumes hold ${stored} bytes of a ${member.size}-byte stored file`);
  }
}

function cutShort(name: string, volume: string): ArchiveError {
  return new ArchiveError(
    'ARCHIVE_VOLUME_MISSING',
    `${name} continues in a next volume, but ${volume} does not continue it: a volume is missing or out of order`,
  );
}

export function compressed(entry: ArchiveEntry): ArchiveError {
  return new ArchiveError(
    'ARCHIVE_COMPRESSED',
    `compressed archive: cannot be streamed (${entry.name} is packed with ${entry.method})`,
  );
}

/** Volume numbers from the headers (when present) must run 0, 1, 2, ... in set order. */
function checkVolumeNumbers(scans: readonly VolumeScan[], names: readonly string[]): void {
  scans.forEach((scan, v) => {
    if (scan.volumeNumber === null || scan.volumeNumber === v) return;
    const missing = scan.volumeNumber > v;
    throw new ArchiveError(
      missing ? 'ARCHIVE_VOLUME_MISSING' : 'ARCHIVE_INVALID',
      missing
        ? `volume ${v + 1} of the archive is not in the NZB (${names[v]} is volume ${scan.volumeNumber + 1})`
        : `${names[v]} is volume ${scan.volumeNumber + 1} of the archive, but sits at position ${v + 1}`,
    );
  });
}
