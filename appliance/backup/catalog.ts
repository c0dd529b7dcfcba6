import { existsSync } from 'node:fs';
import { mkdir, open, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BackupItem, BackupKind } from './backup.wire.js';
import { MANIFEST_NAME, type BackupManifest } from './manifest.js';
import { parseTarHeader, TAR_BLOCK } from './tar.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,150}\.tar$/;
const KINDS: readonly BackupKind[] = ['scheduled', 'manual', 'uploaded', 'pre-restore'];

/** What to keep (backups.keep_count, backups.keep_days): 0 means no limit of that kind. */
export interface Retention {
  keepCount: number;
  keepDays: number;
}

/** A name the catalog would accept, or null: the routes' archive names never reach the filesystem otherwise. */
export function validBackupName(name: string): boolean {
  return NAME.test(name);
}

/** A new archive's name: `<kind>-<time>.tar`. */
export function backupName(kind: BackupKind, at: Date): string {
  return `${kind}-${at.toISOString().replace(/[:.]/g, '-')}.tar`;
}

/**
 * The archives in the backups folder (`<data dir>/backups`): listed with their manifests, marked to keep forever
 * (a `<name>.keep` file beside it), removed, and pruned by count and age.
 */
export class BackupCatalog {
  constructor(readonly dir: string) {}

  async ensure(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
  }

  /** The path of a named archive; null when the name is not one or no such archive exists. */
  pathOf(name: string): string | null {
    if (!validBackupName(name)) return null;
    const path = join(this.dir, name);
    return existsSync(path) ? path : null;
  }

  /** Every complete archive, newest first (`.partial` files are backups still being written, or killed). */
  async list(): Promise<BackupItem[]> {
    if (!existsSync(this.dir)) return [];
    const names = (await readdir(this.dir)).filter(validBackupName);
    const items = await Promise.all(names.map((n) => this.item(n).catch(() => null)));
    return items.filter((i): i is BackupItem => i !== null).sort((a, b) => b.created.localeCompare(a.created));
  }

  async setKeep(name: string, keep: boolean): Promise<void> {
    const marker = join(this.dir, `${name}.keep`);
    if (keep) await writeFile(marker, '');
    else await rm(marker, { force: true });
  }

  async remove(name: string): Promise<void> {
    await rm(join(this.dir, name), { force: true });
    await rm(join(this.dir, `${name}.keep`), { force: true });
  }

  /** Removes what the retention no longer keeps (never one kept forever); returns the names removed. */
  async prune(rule: Retention, now: number): Promise<string[]> {
    const loose = (await this.list()).filter((i) => !i.keep_forever);
    const oldest = rule.keepDays > 0 ? now - rule.keepDays * 86_400_000 : -Infinity;
    const drop = loose.filter(
      (item, rank) => (rule.keepCount > 0 && rank >= rule.keepCount) || Date.parse(item.created) < oldest,
    );
    for (const item of drop) await this.remove(item.name);
    return drop.map((i) => i.name);
  }

  private async item(name: string): Promise<BackupItem> {
    const path = join(this.dir, name);
    const info = await stat(path);
    const manifest = await readManifestOf(path, info.size).catch(() => null);
    const prefix = KINDS.find((k) => name.startsWith(`${k}-`));
    return {
      name,
      size: info.size,
      created: manifest?.created ?? info.mtime.toISOString(),
      kind: prefix ?? 'manual',
      keep_forever: existsSync(`${path}.keep`),
      spool_version: manifest?.spoolVersion ?? null,
      store: manifest?.store ?? null,
    };
  }
}

/** The manifest, read from the archive's tail (it is the last entry, before the two end blocks). */
export async function readManifestOf(path: string, size: number): Promise<BackupManifest | null> {
  const fh = await open(path, 'r');
  try {
    for (const window of [1024 * 1024, 32 * 1024 * 1024]) {
      const start = Math.max(0, Math.floor((size - window) / TAR_BLOCK) * TAR_BLOCK);
      const tail = Buffer.alloc(size - start);
      await fh.read(tail, 0, tail.length, start);
      const found = findManifest(tail);
      if (found) return JSON.parse(found.toString('utf8')) as BackupManifest;
      if (start === 0) return null;
    }
    return null;
  } finally {
    await fh.close();
  }
}

function findManifest(tail: Buffer): Buffer | null {
  for (let at = tail.length - 3 * TAR_BLOCK; at >= 0; at -= TAR_BLOCK) {
    const block = tail.subarray(at, at + TAR_BLOCK);
    if (block.subarray(0, MANIFEST_NAME.length + 1).toString('latin1') !== `${MANIFEST_NAME}\0`) continue;
    try {
      const header = parseTarHeader(block, at);
      if (header && at + TAR_BLOCK + header.size <= tail.length)
        return tail.subarray(at + TAR_BLOCK, at + TAR_BLOCK + header.size);
    } catch {
      // not a header: bytes of an entry that happen to start so
    }
  }
  return null;
}
