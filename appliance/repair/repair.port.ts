import type { FileLayout } from '../layout/index.js';

/**
 * What the PAR2 repair keeps (docs/health.md "PAR2 repair"): rebuilt bytes of files (the patch store) and the
 * layouts of a release's PAR2 files (kept at import so a repair months later can read the recovery packets).
 */

/** Rebuilt bytes [start, end) of a file, stored at `offset` of the blob `blob` on disk. */
export interface PatchRange {
  start: number;
  end: number;
  blob: string;
  offset: number;
}

/** The committed patches of one file, keyed by the file's layout id (a replaced file has a new one). */
export interface FilePatches {
  layoutId: string;
  /** The file's path when patched (kept current on moves), for cleaning up when it leaves the tree. */
  path: string;
  ranges: PatchRange[];
  bytes: number;
  at: number;
}

/** A rebuilt piece of a file to store. */
export interface PatchPiece {
  start: number;
  data: Uint8Array;
}

/** A patch being written: `write` puts bytes at file offset `start`, inside the ranges the writer was opened for. */
export interface PatchWriter {
  write(start: number, data: Uint8Array): Promise<void>;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

/**
 * The patch store. Reads (`covers`, `has`) are synchronous from memory: the reader asks on every article of a
 * file with patches, and a file without any costs one map lookup. `add` writes the bytes to disk (temp name,
 * fsync, rename) and only then commits the index, so a crash never leaves a patch that is served half written.
 */
export interface PatchStore {
  has(layoutId: string): boolean;
  /** True when committed patches cover every byte of [start, end). */
  covers(layoutId: string, start: number, end: number): boolean;
  /** Bytes [start, end) from the committed patches (they must cover it). */
  read(layoutId: string, start: number, end: number): Promise<Uint8Array>;
  /** Bytes held by every committed patch. */
  usedBytes(): number;
  add(layoutId: string, path: string, pieces: readonly PatchPiece[]): Promise<void>;
  /**
   * A patch written in pieces (a streaming repair's strips): the bytes of `ranges` of the file go to a temp blob in
   * any order; `commit` fsyncs, renames and commits the index once, `abort` drops the temp blob. Nothing is served
   * before `commit` resolves.
   */
  open(layoutId: string, path: string, ranges: readonly { start: number; end: number }[]): Promise<PatchWriter>;
  /** Drops the patches of files at or under these paths; answers how many files lost theirs. */
  removePaths(paths: readonly string[]): Promise<number>;
  movePath(from: string, to: string): Promise<void>;
  list(): FilePatches[];
}

/** One PAR2 file of a release, as posted (its article map), kept hidden from the tree. */
export interface KeptPar2File {
  name: string;
  size: number;
  layout: FileLayout;
  /**
   * Not a PAR2 file: a posted file the tree does not show as is (an archive volume, whose members the tree shows),
   * kept so a set over the volumes can be matched and read (docs/health.md "PAR2 repair").
   */
  volume?: boolean;
}

/** The PAR2 files of each import, by the queue item that wrote the job (a node's `queueItemId`). */
export interface Par2FileStore {
  put(queueItemId: number, files: readonly KeptPar2File[]): Promise<void>;
  get(queueItemId: number): Promise<KeptPar2File[] | undefined>;
  remove(queueItemId: number): Promise<void>;
}
