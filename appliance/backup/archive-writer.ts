import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { MANIFEST_NAME, type ManifestEntry } from './manifest.js';
import { tarHeader, tarPadding } from './tar.js';

/** Appends entries to an open archive, streaming files through, and records each one's size and sha256. */
export class ArchiveWriter {
  readonly entries: ManifestEntry[] = [];

  constructor(
    private readonly out: FileHandle,
    private readonly mtime: number,
    private readonly afterEntry?: (name: string) => void,
  ) {}

  /** An entry from memory (the config, the manifest). */
  async add(name: string, data: Buffer): Promise<void> {
    await this.out.write(tarHeader(name, data.length, this.mtime));
    await this.out.write(data);
    await this.finish(name, data.length, createHash('sha256').update(data).digest('hex'));
  }

  /** An entry streamed from a file of `size` bytes (the store's snapshot, a blob); the file must not change. */
  async addFile(name: string, path: string, size: number): Promise<void> {
    await this.out.write(tarHeader(name, size, this.mtime));
    const hash = createHash('sha256');
    let written = 0;
    for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) {
      const bytes = chunk as Buffer;
      hash.update(bytes);
      await this.out.write(bytes);
      written += bytes.length;
    }
    if (written !== size) throw new Error(`${name} changed while it was copied (${written} of ${size} bytes)`);
    await this.finish(name, size, hash.digest('hex'));
  }

  private async finish(name: string, size: number, sha256: string): Promise<void> {
    await this.out.write(tarPadding(size));
    if (name !== MANIFEST_NAME) this.entries.push({ name, size, sha256 });
    this.afterEntry?.(name);
  }
}
