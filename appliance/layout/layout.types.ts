/**
 * The article map of a virtual file: the one layout model, built by the importer (appliance/nzb/layout.ts for a
 * posted file, appliance/archive/ for a file inside RAR/7z volumes), stored by the VFS (`vfs-layouts`) and read by
 * the reader. Plain data (lmdb stores it with msgpack; its shared structures keep the per-segment keys cheap).
 */

/**
 * One article's share of a file: the file's decoded bytes [start, end) are the article's decoded bytes
 * [articleOffset, articleOffset + end - start). A plain posted file uses whole articles (offset 0, size end - start);
 * a file inside an archive volume starts and ends mid-article, and its neighbours in the volume share those articles.
 */
export interface LayoutSegment {
  messageId: string;
  start: number;
  end: number;
  /** Where `start` lies in the decoded article; 0 when absent. */
  articleOffset?: number;
  /** Decoded size of the whole article (the reader checks it); `end - start` when absent. */
  articleSize?: number;
  /** `number=` and `bytes=` as the NZB wrote them (NZB export); absent for layouts built without an NZB. */
  number?: number;
  bytes?: number;
  /** Index into `FileLayout.posts`: the posted file (NZB `<file>`) this article belongs to. */
  post?: number;
}

/** A posted file (an NZB `<file>` element) some of the segments came from; kept so NZB export is faithful. */
export interface LayoutPost {
  poster: string;
  date: number;
  subject: string;
  groups: string[];
}

export interface FileLayout {
  /** Decoded size of the file: segments tile [0, size) in order. */
  size: number;
  segments: LayoutSegment[];
  /** Newsgroups to pass to the pool when it wants them (the first post's). */
  groups?: string[];
  posts?: LayoutPost[];
  /**
   * The segments hold AES-CBC ciphertext (a member of an encrypted archive): the file is the first `plainSize`
   * bytes of its decryption, `size` is the ciphertext's (whole 16-byte blocks). The reader decrypts on the fly; a
   * seek costs one extra block (the previous ciphertext block is the IV).
   */
  cipher?: LayoutCipher;
}

export interface LayoutCipher {
  algorithm: 'aes-256-cbc' | 'aes-128-cbc';
  /** hex */
  key: string;
  iv: string;
  plainSize: number;
}

/** A byte range of another file's layout: a file inside an archive is a list of these, one per volume it spans. */
export interface LayoutExtent {
  layout: FileLayout;
  /** First byte of the range in `layout`'s file. */
  offset: number;
  length: number;
}

/**
 * A layout, or the function that builds it. The importer hands the VFS builders for posted files, so a release of a
 * million articles never holds all its per-article objects at once: each file's layout is built when it is checked
 * and again when it is stored, then dropped (docs/performance.md, import memory).
 */
export type DeferredLayout = FileLayout | (() => FileLayout);

export const resolveLayout = (layout: DeferredLayout): FileLayout => (typeof layout === 'function' ? layout() : layout);

export const articleOffsetOf = (s: LayoutSegment) => s.articleOffset ?? 0;
export const articleSizeOf = (s: LayoutSegment) => s.articleSize ?? s.end - s.start;
