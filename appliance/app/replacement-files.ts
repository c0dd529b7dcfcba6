import { ArticleGoneError, LayoutBytes, type ArticleClient } from '../articles/index.js';
import type { QueueStore } from '../importer/queue.port.js';
import type { ReplacementFiles } from '../repair/index.js';
import type { NzoIds } from '../sabnzbd/index.js';
import type { VfsNode } from '../vfs/types.js';
import type { VfsService } from '../vfs/vfs.service.js';

/** Bytes of a replacement read before the old release is retired: its container's headers live there. */
const FIRST_BYTES = 64 * 1024;

interface Deps {
  vfs: VfsService;
  pool: ArticleClient;
  queue: QueueStore;
  nzo: Pick<NzoIds, 'parse'>;
}

/**
 * Spool's side of a repair's replacement (docs/health.md "Continuity"): the arr's new download, found by its nzo_id,
 * must be imported and its main file's first bytes must read through the pool before the old file is retired.
 */
export function replacementFiles(d: Deps): ReplacementFiles {
  return {
    async firstBytes(downloadId) {
      const id = d.nzo.parse(downloadId);
      if (id === undefined) return { pending: `${downloadId} is not a download of this Spool` };
      const item = await d.queue.get(id);
      if (!item?.targetPath || item.status !== 'completed')
        return { pending: `its import is ${item?.status ?? 'not in the queue'}` };
      const file = largestFile(d.vfs, item.targetPath);
      if (!file) return { pending: 'its job holds no file' };
      const reader = new LayoutBytes(d.pool, 'repair', AbortSignal.timeout(120_000));
      try {
        await reader.read(d.vfs.layout(file), 0, Math.min(file.size, FIRST_BYTES));
        return { path: file.path };
      } catch (err) {
        const why = err instanceof ArticleGoneError ? 'do not read' : 'could not be read now';
        return { pending: `its first bytes ${why}: ${(err as Error).message}` };
      }
    },
    async retire(path) {
      await d.vfs.remove(path);
      // the job folder goes too once nothing is left in it (a season pack keeps its other episodes)
      const dir = path.slice(0, path.lastIndexOf('/'));
      if (dir && d.vfs.stat(dir) && d.vfs.list(dir, { showCorrupted: true }).length === 0) await d.vfs.remove(dir);
    },
  };
}

/** The largest file under a job folder (its main media file), at most three folders deep. */
function largestFile(vfs: VfsService, dir: string, depth = 0): VfsNode | undefined {
  let best: VfsNode | undefined;
  for (const n of vfs.list(dir, { showCorrupted: true })) {
    const candidate =
      n.type === 'file' ? (n.layoutId ? n : undefined) : depth < 3 ? largestFile(vfs, n.path, depth + 1) : undefined;
    if (candidate && (!best || candidate.size > best.size)) best = candidate;
  }
  return best;
}
