/**
 * A file's article map as stored (`vfs-layouts`): the one layout model of appliance/layout. A segment may start
 * mid-article (files inside archive volumes), so the reader slices each article at `articleOffset`.
 */
export type { FileLayout, LayoutSegment as VfsSegment } from '../layout/index.js';
import type { FileMetaJson } from './file-meta.wire.js';
import type { DeferredLayout } from '../layout/index.js';

/** A node of the virtual tree as stored in LMDB (key: parent path + NUL + name). */
export interface VfsNode {
  /** Normalised absolute path, e.g. '/complete/tv/Show.S01E01/show.mkv'. */
  path: string;
  name: string;
  type: 'directory' | 'file';
  size: number;
  createdAt: number;
  modifiedAt: number;
  etag: string;
  /** Files backed by Usenet articles: key of the layout record. */
  layoutId?: string;
  segmentCount?: number;
  sourceNzbPath?: string;
  /** The import queue item that wrote this file (its SABnzbd nzo_id / the arr's download id derive from it). */
  queueItemId?: number;
  /** Small files written by clients (PUT: .nfo, .srt, artwork) live on local disk under this id. */
  sidecarId?: string;
  encryption?: string;
  passwordProtected?: boolean;
  /** The import's availability probe, which passed (an import with a missing sampled article fails instead). */
  probe?: ImportProbe;
  /** The media's playing time from its container's headers, read at import (appliance/media/); absent when unknown. */
  durationSeconds?: number;
  /** WebDAV dead properties set by PROPPATCH: '{namespace}name' -> serialised value (see webdav/xml.ts). */
  deadProps?: Record<string, string>;
}

/** What the importer learned about a file's articles before writing it: its sample of them was all present. */
export interface ImportProbe {
  /** When the probe ran (ms since epoch). */
  at: number;
  /** import.segment_sample_percentage at the time (100 = every article was STATed). */
  samplePercentage: number;
}

export interface AddJobFile {
  /** Path relative to the job directory ('movie.mkv' or 'Subs/en.srt'); refused if it escapes the job. */
  name: string;
  size: number;
  /** The article map, or a function building it (built when the job is checked and written, then dropped). */
  layout: DeferredLayout;
  sourceNzbPath?: string;
  /** The import queue item writing this job (kept on the node: which download produced this file). */
  queueItemId?: number;
  encryption?: string;
  passwordProtected?: boolean;
  /** The availability probe this file passed at import (GET /api/files/info reports it healthy until checked). */
  probe?: ImportProbe;
  /** The media's playing time read at import (appliance/media/), when its container says. */
  durationSeconds?: number;
  /** Seconds or ms since epoch; defaults to now. */
  modifiedAt?: number;
}

export interface AddJobInput {
  category: string;
  jobName: string;
  files: AddJobFile[];
  /** Replace an existing job directory of the same name instead of failing with VFS_EXISTS. */
  replace?: boolean;
}

export interface ListOptions {
  /** Include files whose health is 'corrupted' (X-Show-Corrupted: true). */
  showCorrupted?: boolean;
}

/** docs/console-contract.md §3 File metadata (GET /api/files/info): file-meta.wire.ts. */
export type FileMeta = FileMetaJson;

/**
 * What the VFS asks the health domain, which keeps all health state (health/health.store.ts answers from memory).
 * Synchronous and cheap: listings, FUSE getattr and every article a read fetches ask it. The tree keeps no copy.
 */
export interface HealthVerdicts {
  /** The file's last health check found it corrupted: listings hide it unless asked (X-Show-Corrupted). */
  corrupted(path: string): boolean;
  /** The article is known unavailable for the file: a check found it missing or damaged, or a read failed on it. */
  unavailable(path: string, messageId: string): boolean;
}

/** Nothing known about any file (a tree without a health domain: tools, unit tests). */
export const NO_VERDICTS: HealthVerdicts = { corrupted: () => false, unavailable: () => false };

/**
 * Rebuilt bytes of files (the PAR2 repair's patch store, appliance/repair). Synchronous questions from memory: a
 * file without patches costs the reader one lookup per article.
 */
export interface PatchedBytes {
  has(layoutId: string): boolean;
  /** True when committed patches cover every byte of [start, end) of the file. */
  covers(layoutId: string, start: number, end: number): boolean;
  read(layoutId: string, start: number, end: number): Promise<Uint8Array>;
}

/** No file has patches. */
export const NO_PATCHES: PatchedBytes = {
  has: () => false,
  covers: () => false,
  read: () => Promise.reject(new Error('no patches')),
};

/** The last check's verdict on a file. */
export type FileVerdict = Exclude<FileMeta['status'], 'other'>;

/** What the health domain knows of one file, for GET /api/files/info (see file-meta.ts). */
export interface FileHealth {
  /** The last check's verdict; undefined while never checked. */
  verdict?: FileVerdict;
  /** Message ids known unavailable: the last verdict's missing articles and reads' evidence since. */
  unavailable?: ReadonlySet<string>;
}

/** Emitted when a read could not get an article from any provider (the health domain subscribes). */
export interface ArticleFailure {
  path: string;
  messageId: string;
  segmentIndex: number;
  reason: string;
  /** What the failure says about the article: 430 on every provider, or a body that failed its CRC or size. */
  evidence: 'missing' | 'damaged';
  at: number;
  zeroFilled: boolean;
}
