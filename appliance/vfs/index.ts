/**
 * The virtual filesystem: one tree in LMDB, one reader over the NNTP pool, shared by WebDAV and FUSE.
 *
 * ## For the importer (write imported jobs here)
 *   const vfs = new VfsService({ db: { nodes: store.openDb('vfs-nodes'), layouts: store.openDb('vfs-layouts') },
 *                                sidecarDir: `${dataDir}/sidecars` });
 *   await vfs.addJob({ category: 'tv', jobName: 'Show.S01E01', replace?: false, files: [
 *     { name: 'show.mkv', size, layout: { segments: [{ messageId, start, end }, ...], groups? },
 *       sourceNzbPath?, health?: 'pending', encryption?: 'none', passwordProtected?: false, modifiedAt? } ] })
 *     -> { dir: '/complete/tv/Show.S01E01', files: ['/complete/tv/Show.S01E01/show.mkv'] }
 *   `segments` must tile [0, size) in order (start of each = end of the previous), else BAD_REQUEST.
 *   message ids without angle brackets. An existing job dir -> ALREADY_EXISTS unless `replace: true`.
 *
 * ## Tree operations (paths are normalised; traversal, NUL, backslash -> BAD_REQUEST)
 *   vfs.stat(path) -> VfsNode | undefined          vfs.requireNode(path) -> VfsNode (NOT_FOUND)
 *   vfs.list(dir, { showCorrupted }) -> VfsNode[]  (corrupted files hidden unless asked)
 *   vfs.remove(path) -> removed paths               vfs.transfer(from, to, { mode: 'move'|'copy', overwrite })
 *   vfs.mkdir(path)                                 vfs.setHealth(path, status)  (health domain)
 *   vfs.layout(node) -> FileLayout                  vfs.walkFiles(path) -> every file below
 *   fileMeta(vfs, path, unavailable?) -> spec §3 File metadata (GET /api/files/info)
 *   Events: vfs.on('removed', paths => ...) (drop health records), vfs.on('changed', dir => ...) (rclone refresh).
 *
 * ## Reading
 *   const reader = new VfsReader(vfs, source, () => readerSettings(config));  source: ArticleSource (pool adapter)
 *   for await (const chunk of reader.read(path, offset, length, signal)) ...   throws VfsReadError (502) when an
 *   article is missing everywhere; reader.on('article-failure', f => ...) reports it (health subscribes).
 *   new ReadStream(reader, path, () => n).readInto(buf, offset, len, signal) adds sequential read-ahead.
 *   stream.readCached(buf, offset, len) -> bytes | null: the same read, synchronously, when memory holds it (FUSE).
 */
export { VfsService, type VfsOptions } from './vfs.service.js';
export { TreeRepository, type VfsDatabases } from './tree.repository.js';
export { VfsReader, VfsReadError, findSegment, type ReaderSettings } from './reader.js';
export { ReadStream } from './read-stream.js';
export { ArticleCache } from './article-cache.js';
export type { ArticleSource } from './article-fetcher.js';
export { normalizeVfsPath, decodeUrlPath } from './path.js';
export { fileMeta } from './file-meta.js';
export type * from './types.js';
