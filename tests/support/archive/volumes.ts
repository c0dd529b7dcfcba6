/** What the test archive writers produce: volumes as byte chunks, so a multi-GiB member can stay sparse. */
export interface WrittenVolume {
  name: string;
  size: number;
  /** Non-overlapping chunks in order; bytes between them are a sparse member's data (zeros). */
  chunks: { offset: number; bytes: Buffer }[];
}

export interface MemberInput {
  name: string;
  /** The member's bytes, or only its size: a sparse member (headers are real, data is never materialised). */
  data: Buffer | { size: number };
  mtime?: number;
}

export const sizeOf = (m: MemberInput) => (Buffer.isBuffer(m.data) ? m.data.length : m.data.size);

/** A volume's bytes (refuses sparse volumes: they exist only to be read through `readSparse`). */
export function materialize(v: WrittenVolume): Buffer {
  const out = Buffer.alloc(v.size);
  let covered = 0;
  for (const c of v.chunks) {
    c.bytes.copy(out, c.offset);
    covered += c.bytes.length;
  }
  if (covered !== v.size) throw new Error(`${v.name} is sparse; it cannot be materialised`);
  return out;
}

/** Bytes [offset, offset+length) of a volume, zeros where a sparse member's data lies. */
export function readSparse(v: WrittenVolume, offset: number, length: number): Buffer {
  const out = Buffer.alloc(length);
  for (const c of v.chunks) {
    const from = Math.max(offset, c.offset);
    const to = Math.min(offset + length, c.offset + c.bytes.length);
    if (from < to) c.bytes.copy(out, from - offset, from - c.offset, to - c.offset);
  }
  return out;
}

/** Accumulates one volume's chunks. */
export class VolumeBuilder {
  readonly chunks: { offset: number; bytes: Buffer }[] = [];
  size = 0;
  put(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.chunks.push({ offset: this.size, bytes });
    this.size += bytes.length;
  }
  skip(n: number): void {
    this.size += n;
  }
}

/** RAR volume names: `.partN.rar` padded to the count's digits, or `.rar`, `.r00`..`.r99`, `.s00`... */
export function rarVolumeNames(base: string, count: number, scheme: 'part' | 'old'): string[] {
  if (scheme === 'part') {
    const width = Math.max(1, String(count).length);
    return Array.from({ length: count }, (_, i) => `${base}.part${String(i + 1).padStart(width, '0')}.rar`);
  }
  return Array.from({ length: count }, (_, i) =>
    i === 0
      ? `${base}.rar`
      : `${base}.${String.fromCharCode(114 + Math.floor((i - 1) / 100))}${String((i - 1) % 100).padStart(2, '0')}`,
  );
}
