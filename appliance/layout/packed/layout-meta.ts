import type { FileLayout, LayoutCipher, LayoutPost } from '../layout.types.js';
import type { ByteReader, ByteWriter } from './bytes.js';
import { LayoutCodecError } from './bytes.js';

/**
 * The facts of a packed layout that are per file, not per segment (groups, posts, cipher): a few hundred bytes at
 * most, kept as JSON and checked field by field when read back. A post is `[poster, date, subject]` when its groups
 * are the layout's (as a posted file's are), else `[poster, date, subject, groups]`: a one-article file is mostly
 * this record.
 */
export function writeMeta(w: ByteWriter, layout: FileLayout): void {
  const meta: Record<string, unknown> = {};
  if (layout.groups !== undefined) meta.groups = layout.groups;
  if (layout.posts !== undefined) {
    meta.posts = layout.posts.map((p) =>
      sameList(p.groups, layout.groups) ? [p.poster, p.date, p.subject] : [p.poster, p.date, p.subject, p.groups],
    );
  }
  if (layout.cipher !== undefined) meta.cipher = layout.cipher;
  w.string(Object.keys(meta).length === 0 ? '' : JSON.stringify(meta));
}

export function readMeta(r: ByteReader, size: number): FileLayout {
  const text = r.string();
  const layout: FileLayout = { size, segments: [] };
  if (text === '') return layout;
  let meta: unknown;
  try {
    meta = JSON.parse(text);
  } catch {
    throw new LayoutCodecError('the file facts are not JSON');
  }
  if (!isRecord(meta)) throw new LayoutCodecError('the file facts are not an object');
  for (const key of Object.keys(meta)) {
    if (key !== 'groups' && key !== 'posts' && key !== 'cipher') throw new LayoutCodecError(`unknown fact ${key}`);
  }
  if (meta.groups !== undefined) layout.groups = strings(meta.groups, 'groups');
  if (meta.posts !== undefined) {
    if (!Array.isArray(meta.posts)) throw new LayoutCodecError('posts are not a list');
    layout.posts = meta.posts.map((p) => post(p, layout.groups));
  }
  if (meta.cipher !== undefined) layout.cipher = cipher(meta.cipher);
  return layout;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function strings(v: unknown, what: string): string[] {
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) throw new LayoutCodecError(`${what}: not text`);
  return v as string[];
}

const sameList = (a: readonly string[], b: readonly string[] | undefined) =>
  b !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);

function post(v: unknown, groups: string[] | undefined): LayoutPost {
  if (Array.isArray(v) && (v.length === 4 || (v.length === 3 && groups))) {
    const [poster, date, subject, own] = v as unknown[];
    if (typeof poster === 'string' && typeof date === 'number' && typeof subject === 'string') {
      return { poster, date, subject, groups: v.length === 4 ? strings(own, 'post groups') : [...groups!] };
    }
  }
  if (
    !isRecord(v) ||
    typeof v.poster !== 'string' ||
    typeof v.date !== 'number' ||
    typeof v.subject !== 'string' ||
    Object.keys(v).length !== 4
  ) {
    throw new LayoutCodecError('a post lacks poster, date, subject or groups');
  }
  return { poster: v.poster, date: v.date, subject: v.subject, groups: strings(v.groups, 'post groups') };
}

function cipher(v: unknown): LayoutCipher {
  if (
    !isRecord(v) ||
    (v.algorithm !== 'aes-256-cbc' && v.algorithm !== 'aes-128-cbc') ||
    typeof v.key !== 'string' ||
    typeof v.iv !== 'string' ||
    typeof v.plainSize !== 'number'
  ) {
    throw new LayoutCodecError('the cipher lacks algorithm, key, iv or plainSize');
  }
  return { algorithm: v.algorithm, key: v.key, iv: v.iv, plainSize: v.plainSize };
}
