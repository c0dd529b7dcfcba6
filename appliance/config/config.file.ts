import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Document, parseDocument } from 'yaml';
import type { FieldError } from '../errors/field-errors.js';
import type { SpoolConfig } from './schema.js';

/** The file holds secrets (provider passwords, API keys): only its owner may read it. */
export const CONFIG_FILE_MODE = 0o600;

export type ParsedFile = { ok: true; value: unknown } | { ok: false; errors: FieldError[] };

/** Reads and parses the YAML file; null when it does not exist. Syntax errors come back with line and column. */
export async function readConfigFile(file: string): Promise<ParsedFile | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return { ok: false, errors: [{ field: '', message: `Cannot read ${file}: ${(err as Error).message}` }] };
  }
  return parseConfigText(text);
}

export function parseConfigText(text: string): ParsedFile {
  // uniqueKeys: a key written twice is a mistake worth reporting, not a silent "last one wins".
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: true });
  if (doc.errors.length > 0) {
    return {
      ok: false,
      errors: doc.errors.map((e) => ({ field: '', message: `YAML syntax error: ${e.message.split('\n')[0]}` })),
    };
  }
  const value: unknown = doc.toJS({ maxAliasCount: 100 });
  if (value !== null && (typeof value !== 'object' || Array.isArray(value))) {
    return { ok: false, errors: [{ field: '', message: 'The configuration file must be a mapping of sections' }] };
  }
  return { ok: true, value };
}

const SECTION_COMMENTS: Record<string, string> = {
  webdav: ' HTTP front: console, /api, /sabnzbd/api and /webdav all listen on this port (restart to change).',
  auth: ' Sign-in. With login_required false everyone is treated as an administrator.',
  metadata: ' Where the LMDB store (users, queue, virtual files) lives (restart to change).',
  streaming: ' Read path: article cache, download workers, zero-fill policy for tiny holes.',
  import: ' NZB import queue. max_processor_workers needs a restart.',
  health: ' Article health checks and repair through Radarr/Sonarr.',
  providers: ' NNTP providers, first = highest priority. Passwords are stored here: keep this file private.',
  rclone: ' rclone RC server and mount options (rclone syntax for sizes and durations).',
  mount_path: ' Where the virtual filesystem is mounted (FUSE or rclone).',
  sabnzbd: ' SABnzbd-compatible API for Radarr/Sonarr at /sabnzbd/api.',
  arrs: ' Radarr/Sonarr instances used for repair.',
  log: ' Logging. An empty file logs to stdout only.',
};

/** The config as YAML with a comment above each section, so a hand edit starts from something readable. */
export function renderConfig(config: SpoolConfig): string {
  const doc = new Document(config);
  doc.commentBefore =
    ' Spool configuration. Every key is documented in docs/configuration.md.\n' +
    ' Edit while Spool runs, then use Reload in the console (or POST /api/config/reload).';
  type Key = { commentBefore?: string; spaceBefore?: boolean; value?: unknown };
  const map = doc.contents as unknown as { items: { key: Key }[] };
  map.items.forEach((item, i) => {
    const comment = SECTION_COMMENTS[String(item.key.value ?? item.key)];
    if (comment) item.key.commentBefore = comment;
    if (i > 0) item.key.spaceBefore = true;
  });
  return doc.toString({ lineWidth: 0 });
}

/**
 * Replaces the file atomically: write a temp file in the same directory, fsync it, rename over the target, fsync
 * the directory. A crash leaves either the old file or the new one, never a torn mix.
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(tmp, 'wx', CONFIG_FILE_MODE);
  try {
    await handle.writeFile(text, 'utf8');
    // The mode passed to open is masked by the umask; set it explicitly.
    await handle.chmod(CONFIG_FILE_MODE);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await handle.close();
  try {
    await rename(tmp, file);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await syncDir(dir);
}

async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } catch {
    // Some filesystems refuse fsync on a directory; the rename itself is still atomic.
  } finally {
    await handle.close();
  }
}
