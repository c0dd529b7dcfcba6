/** What a file is for, from its (real) name. Decides what becomes a main file and what is put aside. */
export type FileKind = 'media' | 'archive' | 'par2' | 'extra' | 'other';

const MEDIA = new Set([
  // video
  'mkv',
  'mp4',
  'm4v',
  'avi',
  'mov',
  'wmv',
  'mpg',
  'mpeg',
  'ts',
  'm2ts',
  'mts',
  'webm',
  'flv',
  'vob',
  'iso',
  'img',
  // audio
  'mp3',
  'flac',
  'm4a',
  'm4b',
  'aac',
  'ogg',
  'opus',
  'wav',
  'alac',
  'ape',
  'dts',
  'ac3',
  // subtitles travel with the media and players want them, so they are main files too
  'srt',
  'sub',
  'idx',
  'ass',
  'ssa',
  'vtt',
  'sup',
]);
const EXTRAS = new Set([
  'nfo',
  'sfv',
  'srr',
  'txt',
  'jpg',
  'jpeg',
  'png',
  'gif',
  'nzb',
  'url',
  'md5',
  'sha1',
  'db',
  'log',
]);
const ARCHIVE = /\.(rar|r\d{2,3}|7z|zip)$/i;

/** The extension in lower case, without the dot; '' when there is none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return '';
  const ext = name.slice(dot + 1);
  return /^[A-Za-z0-9]{1,8}$/.test(ext) ? ext.toLowerCase() : '';
}

/** `name` should already have any `.001` split suffix removed (see split.ts). */
export function classifyName(name: string): FileKind {
  if (/\.par2$/i.test(name)) return 'par2';
  if (ARCHIVE.test(name)) return 'archive';
  const ext = extensionOf(name);
  if (MEDIA.has(ext)) return 'media';
  if (EXTRAS.has(ext)) return 'extra';
  return 'other';
}

/** Main files become virtual files; PAR2 and extras are kept as metadata only. */
export const isMainKind = (kind: FileKind) => kind === 'media' || kind === 'archive' || kind === 'other';
