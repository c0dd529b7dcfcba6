import { copyFileSync, mkdirSync } from 'node:fs';
import { readFile, rm, writeFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { SidecarFiles } from './sidecar.port.js';

/**
 * Small client-written files (.nfo, .srt, artwork) kept on local disk, named by an opaque id so no client path
 * ever reaches the filesystem. Writes go to a temp name first so a crash never leaves half a subtitle.
 */
export class SidecarStore implements SidecarFiles {
  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  async write(id: string, bytes: Buffer): Promise<void> {
    const tmp = this.file(`${id}.tmp`);
    await writeFile(tmp, bytes);
    await rename(tmp, this.file(id));
  }

  read(id: string): Promise<Buffer> {
    return readFile(this.file(id));
  }

  async remove(id: string): Promise<void> {
    await rm(this.file(id), { force: true });
  }

  copySync(from: string, to: string): void {
    copyFileSync(this.file(from), this.file(to));
  }

  private file(id: string): string {
    if (!/^[0-9a-f-]+(\.tmp)?$/.test(id)) throw new Error(`bad sidecar id ${id}`);
    return join(this.dir, id);
  }
}
