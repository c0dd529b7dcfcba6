import { randomUUID } from 'node:crypto';
import { AppError } from '../errors/app-error.js';
import { silentEvents, type EventSink, type SpoolEvents } from '../events/index.js';
import { layoutProblem, resolveLayout } from '../layout/index.js';
import { checkSegment, isWithin, joinPath, normalizeVfsPath, parentOf, baseName } from './path.js';
import type { SidecarFiles } from './sidecar.port.js';
import { SidecarStore } from './sidecar.store.js';
import type { TreeStore } from './tree.port.js';
import {
  NO_VERDICTS,
  type AddJobFile,
  type AddJobInput,
  type FileLayout,
  type HealthVerdicts,
  type ListOptions,
  type VfsNode,
} from './types.js';

export interface VfsOptions {
  /** Where the tree lives (LmdbTreeStore in the app). */
  tree: TreeStore;
  /** Local directory for sidecar files (PUT .nfo/.srt/artwork), unless `sidecars` is given. */
  sidecarDir?: string;
  /** Where sidecar files live (app/stores.ts); default a SidecarStore on `sidecarDir`. */
  sidecars?: SidecarFiles;
  /** Root of imported jobs, default '/complete' (sabnzbd.complete_dir). */
  completeDir?: string;
  /** The health domain's verdicts (corrupted files are hidden from listings); none known by default. */
  health?: HealthVerdicts;
  /**
   * Where the tree announces its changes once committed: `file.added` (the article-backed files a job wrote; health
   * gives each a record), `file.removed` (paths that left the tree; health drops their records), `file.moved`
   * (before the `file.removed` of its source; health moves its records along), `directory.changed` (a listing
   * changed; rclone vfs/refresh).
   */
  events?: EventSink<SpoolEvents>;
}

/**
 * The virtual tree: directories, article-backed files and small local sidecars. Every path that comes in is
 * normalised here (callers may pass user input); every write is one atomic `TreeStore.write`.
 */
export class VfsService {
  private readonly repo: TreeStore;
  private readonly events: EventSink<SpoolEvents>;
  readonly sidecars: SidecarFiles;
  readonly completeDir: string;
  /** What the health domain knows (the tree keeps no health of its own): the listing filter and the reader ask. */
  readonly health: HealthVerdicts;

  constructor(opts: VfsOptions) {
    this.events = opts.events ?? silentEvents();
    this.health = opts.health ?? NO_VERDICTS;
    this.repo = opts.tree;
    this.sidecars = opts.sidecars ?? new SidecarStore(opts.sidecarDir ?? missing('sidecarDir or sidecars'));
    this.completeDir = normalizeVfsPath(opts.completeDir ?? '/complete');
  }

  /** Writes an imported job under /complete/<category>/<job>/ and returns the paths it created. */
  async addJob(input: AddJobInput): Promise<{ dir: string; files: string[] }> {
    checkSegment(input.category);
    checkSegment(input.jobName);
    if (!input.category || !input.jobName) throw new AppError('INVALID_PARAMETER', 'category and jobName are required');
    const dir = joinPath(joinPath(this.completeDir, input.category), input.jobName);
    const now = Date.now();
    const planned = input.files.map((f) => {
      const path = normalizeVfsPath(`${dir}/${f.name}`);
      if (!isWithin(path, dir) || path === dir)
        throw new AppError('INVALID_PATH', `File name escapes the job: ${f.name}`);
      return { f, path };
    });
    const exists = () => {
      const existing = this.repo.get(dir);
      if (existing && !input.replace) throw new AppError('ALREADY_EXISTS', `Job already exists: ${dir}`);
      return existing;
    };
    exists();
    const layouts = await this.storeLayouts(planned.map((p) => p.f));
    const removed: string[] = [];
    await this.repo
      .write(() => {
        if (exists()) removed.push(...this.deleteSubtree(dir));
        this.ensureDirs(dir, now);
        for (const [i, { f, path }] of planned.entries()) {
          this.ensureDirs(parentOf(path), now);
          const { layoutId, segmentCount } = layouts[i]!;
          const mtime = f.modifiedAt ? toMs(f.modifiedAt) : now;
          this.repo.put({
            path,
            name: baseName(path),
            type: 'file',
            size: f.size,
            createdAt: now,
            modifiedAt: mtime,
            etag: makeEtag(layoutId, f.size, mtime),
            layoutId,
            segmentCount,
            sourceNzbPath: f.sourceNzbPath,
            ...(f.queueItemId !== undefined ? { queueItemId: f.queueItemId } : {}),
            encryption: f.encryption ?? 'none',
            passwordProtected: f.passwordProtected ?? false,
            ...(f.probe ? { probe: f.probe } : {}),
            ...(f.durationSeconds !== undefined ? { durationSeconds: f.durationSeconds } : {}),
          });
        }
      })
      .catch(async (err: unknown) => {
        await this.repo.dropLayouts(layouts.map((l) => l.layoutId));
        throw err;
      });
    if (removed.length) this.events.emit('file.removed', { paths: removed });
    this.events.emit('file.added', {
      paths: planned.map((p) => p.path),
      queue_item_id: input.files.find((f) => f.queueItemId !== undefined)?.queueItemId ?? null,
    });
    this.changed(parentOf(dir));
    return { dir, files: planned.map((p) => p.path) };
  }

  /**
   * Stores the job's layouts before its nodes, each in a transaction of its own: each one is built (when deferred),
   * checked, committed and dropped before the next is built, so a job of a million articles never holds every
   * file's layout, nor their encoded bytes in one transaction, at once (docs/performance.md, import memory). The
   * nodes that name them are then written in one transaction; if anything fails first, the stored layouts are
   * removed again. A crash in between leaves only layouts no node names (never a node without its layout).
   */
  private async storeLayouts(files: readonly AddJobFile[]): Promise<{ layoutId: string; segmentCount: number }[]> {
    const stored: { layoutId: string; segmentCount: number }[] = [];
    try {
      for (const f of files) {
        const layout = resolveLayout(f.layout);
        checkLayout(layout, f.size, f.name);
        const layoutId = randomUUID();
        await this.repo.storeLayout(layoutId, layout);
        stored.push({ layoutId, segmentCount: layout.segments.length });
      }
    } catch (err) {
      await this.repo.dropLayouts(stored.map((s) => s.layoutId));
      throw err;
    }
    return stored;
  }

  stat(path: string): VfsNode | undefined {
    return this.repo.get(normalizeVfsPath(path));
  }

  /** A directory's children; corrupted files only when asked. Throws NO_SUCH_PATH / INVALID_PATH for non-dirs. */
  list(path: string, opts: ListOptions = {}): VfsNode[] {
    const dir = this.requireNode(path);
    if (dir.type !== 'directory') throw new AppError('INVALID_PATH', `Not a directory: ${dir.path}`);
    const kids = this.repo.children(dir.path);
    return opts.showCorrupted ? kids : kids.filter((n) => !this.health.corrupted(n.path));
  }

  requireNode(path: string): VfsNode {
    const p = normalizeVfsPath(path);
    const node = this.repo.get(p);
    if (!node) throw new AppError('NO_SUCH_PATH', `Not found: ${p}`);
    return node;
  }

  layout(node: VfsNode): FileLayout {
    const layout = node.layoutId ? this.repo.layout(node.layoutId) : undefined;
    if (!layout) throw new AppError('NO_SUCH_PATH', `No article map for ${node.path}`);
    return layout;
  }

  async mkdir(path: string): Promise<VfsNode> {
    const p = normalizeVfsPath(path);
    return this.repo.write(() => {
      if (this.repo.get(p)) throw new AppError('PATH_TAKEN', `Already exists: ${p}`);
      const parent = this.repo.get(parentOf(p));
      if (!parent || parent.type !== 'directory')
        throw new AppError('PARENT_MISSING', `Parent does not exist: ${parentOf(p)}`);
      const node = dirNode(p, Date.now());
      this.repo.put(node);
      this.changed(parentOf(p));
      return node;
    });
  }

  /** Removes a file or directory (recursively), its layouts and sidecars; returns the removed paths. */
  async remove(path: string): Promise<string[]> {
    const p = normalizeVfsPath(path);
    if (p === '/') throw new AppError('PROTECTED_PATH', 'The root cannot be deleted');
    const removed = await this.repo.write(() => {
      if (!this.repo.get(p)) throw new AppError('NO_SUCH_PATH', `Not found: ${p}`);
      return this.deleteSubtree(p);
    });
    this.events.emit('file.removed', { paths: removed });
    this.changed(parentOf(p));
    return removed;
  }

  /**
   * Moves or copies a node (metadata only: layouts are shared by reference on move and duplicated on copy, no
   * article is touched). Returns whether the destination existed before (WebDAV answers 204 vs 201).
   */
  async transfer(
    from: string,
    to: string,
    opts: { mode: 'move' | 'copy'; overwrite: boolean; shallow?: boolean },
  ): Promise<{ replaced: boolean }> {
    const src = normalizeVfsPath(from);
    const dst = normalizeVfsPath(to);
    if (src === '/' || dst === '/') throw new AppError('PROTECTED_PATH', 'The root cannot be moved or replaced');
    if (isWithin(dst, src)) throw new AppError('PROTECTED_PATH', 'Cannot move or copy a directory into itself');
    const removed: string[] = [];
    const replaced = await this.repo.write(() => {
      const node = this.repo.get(src);
      if (!node) throw new AppError('NO_SUCH_PATH', `Not found: ${src}`);
      const parent = this.repo.get(parentOf(dst));
      if (!parent || parent.type !== 'directory')
        throw new AppError('PARENT_MISSING', `Destination parent missing: ${parentOf(dst)}`);
      const existed = this.repo.get(dst) !== undefined;
      if (existed && !opts.overwrite) throw new AppError('DESTINATION_EXISTS', `Destination exists: ${dst}`);
      if (existed) removed.push(...this.deleteSubtree(dst));
      const nodes = opts.shallow ? [node] : this.repo.subtree(src);
      const now = Date.now();
      for (const n of nodes) {
        const path = dst + n.path.slice(src.length);
        const copy: VfsNode = { ...n, path, name: baseName(path) };
        if (opts.mode === 'copy') this.duplicateContent(copy, now);
        this.repo.put(copy);
      }
      if (opts.mode === 'move') for (const n of nodes.reverse()) this.repo.delete(n.path);
      return existed;
    });
    // Replaced nodes at the destination go first, so records moved along with src are not dropped after.
    if (removed.length) this.events.emit('file.removed', { paths: removed });
    if (opts.mode === 'move') {
      this.events.emit('file.moved', { from: src, to: dst });
      this.events.emit('file.removed', { paths: [src] });
    }
    this.changed(parentOf(dst));
    if (opts.mode === 'move') this.changed(parentOf(src));
    return { replaced };
  }

  /** Creates or replaces a small local file (the caller enforces the size cap). */
  async writeSidecar(path: string, bytes: Buffer): Promise<{ created: boolean }> {
    const p = normalizeVfsPath(path);
    const existing = this.repo.get(p);
    if (existing?.type === 'directory') throw new AppError('PATH_TAKEN', `A directory exists at ${p}`);
    if (existing?.layoutId) throw new AppError('PROTECTED_PATH', `Cannot overwrite an imported file: ${p}`);
    const parent = this.repo.get(parentOf(p));
    if (!parent || parent.type !== 'directory')
      throw new AppError('PARENT_MISSING', `Parent does not exist: ${parentOf(p)}`);
    const id = randomUUID();
    await this.sidecars.write(id, bytes);
    const now = Date.now();
    await this.repo.write(() => {
      this.repo.put({
        ...(existing ?? {}),
        path: p,
        name: baseName(p),
        type: 'file',
        size: bytes.length,
        createdAt: existing?.createdAt ?? now,
        modifiedAt: now,
        etag: makeEtag(id, bytes.length, now),
        sidecarId: id,
      });
    });
    if (existing?.sidecarId) await this.sidecars.remove(existing.sidecarId);
    this.changed(parentOf(p));
    return { created: !existing };
  }

  /** Applies PROPPATCH changes all-or-nothing (value null removes). */
  async patchDeadProps(path: string, changes: [key: string, value: string | null][]): Promise<void> {
    const p = normalizeVfsPath(path);
    await this.repo.write(() => {
      const node = this.repo.get(p);
      if (!node) throw new AppError('NO_SUCH_PATH', `Not found: ${p}`);
      if (p === '/') throw new AppError('PROTECTED_PATH', 'Properties of the root cannot be changed');
      const props = { ...(node.deadProps ?? {}) };
      for (const [k, v] of changes) {
        if (v === null) delete props[k];
        else props[k] = v;
      }
      this.repo.put({ ...node, deadProps: props });
    });
  }

  private changed(dir: string): void {
    this.events.emit('directory.changed', { dir });
  }

  /** How many writes the tree has committed, ever (tree.port.ts `writes`): health's start compares it. */
  treeWrites(): number {
    return this.repo.writes();
  }

  /**
   * Every file at or below `path` (health checks, stats), one folder's listing at a time: a walk of a library of
   * 100,000 files never holds every node of the tree at once.
   */
  *walkFiles(path = '/'): Generator<VfsNode> {
    const top = this.repo.get(normalizeVfsPath(path));
    if (top?.type === 'file') yield top;
    if (top?.type !== 'directory') return;
    const dirs = [top.path];
    for (let dir = dirs.pop(); dir !== undefined; dir = dirs.pop())
      for (const n of this.repo.children(dir)) {
        if (n.type === 'directory') dirs.push(n.path);
        else yield n;
      }
  }

  private ensureDirs(dir: string, now: number): void {
    const parts = dir.split('/').filter(Boolean);
    let cur = '/';
    for (const part of parts) {
      cur = joinPath(cur, part);
      const node = this.repo.get(cur);
      if (!node) this.repo.put(dirNode(cur, now));
      else if (node.type !== 'directory') throw new AppError('NOT_A_DIRECTORY', `A file is in the way: ${cur}`);
    }
  }

  private deleteSubtree(path: string): string[] {
    const nodes = this.repo.subtree(path);
    for (const n of nodes.reverse()) {
      if (n.layoutId) this.repo.deleteLayout(n.layoutId);
      if (n.sidecarId) void this.sidecars.remove(n.sidecarId);
      this.repo.delete(n.path);
    }
    return nodes.map((n) => n.path);
  }

  /** A copy gets its own layout / sidecar so deleting either side never breaks the other. */
  private duplicateContent(node: VfsNode, now: number): void {
    node.createdAt = now;
    if (node.layoutId) {
      const layout = this.repo.layout(node.layoutId);
      node.layoutId = randomUUID();
      if (layout) this.repo.putLayout(node.layoutId, layout);
    }
    if (node.sidecarId) {
      const id = randomUUID();
      this.sidecars.copySync(node.sidecarId, id);
      node.sidecarId = id;
    }
    node.etag = makeEtag(node.layoutId ?? node.sidecarId ?? node.path, node.size, now);
  }
}

function missing(what: string): never {
  throw new Error(`VfsService needs ${what}`);
}

function dirNode(path: string, now: number): VfsNode {
  return {
    path,
    name: baseName(path),
    type: 'directory',
    size: 0,
    createdAt: now,
    modifiedAt: now,
    etag: makeEtag(path, 0, now),
  };
}

function makeEtag(id: string, size: number, mtime: number): string {
  return `"${id.slice(0, 8)}-${size.toString(16)}-${mtime.toString(16)}"`;
}

function toMs(t: number): number {
  return t < 1e12 ? t * 1000 : t;
}

/** A layout must tile [0, size) exactly, each segment inside its article; anything else could return wrong bytes. */
function checkLayout(layout: FileLayout, size: number, name: string): void {
  const problem = layoutProblem(layout, size);
  if (problem) throw new AppError('INVALID_LAYOUT', `Layout of ${name}: ${problem}`);
}
