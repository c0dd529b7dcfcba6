/** Preview classification of docs/console-contract.md §5: by extension, else by mime type. */

export type PreviewKind = 'image' | 'video' | 'audio' | 'text' | 'pdf' | 'archive' | 'unsupported';

const IMAGE = ['jpg', 'jpeg', 'png', 'gif', 'svg', 'webp', 'bmp', 'ico'];
const VIDEO = ['mp4', 'webm', 'avi', 'mov', 'mkv', 'wmv', 'flv', 'm4v'];
const AUDIO = ['mp3', 'wav', 'ogg', 'aac', 'flac', 'wma', 'm4a'];
const ARCHIVE = ['zip', 'rar', '7z', 'tar', 'gz', 'bz2', 'xz'];

/** Text and source files, with the language label the preview shows. */
const LANGUAGES: Record<string, string> = {
  txt: 'Plain Text',
  md: 'Markdown',
  json: 'JSON',
  xml: 'XML',
  csv: 'CSV',
  log: 'Log',
  yml: 'YAML',
  yaml: 'YAML',
  ini: 'INI',
  conf: 'Config',
  cfg: 'Config',
  js: 'JavaScript',
  ts: 'TypeScript',
  jsx: 'JavaScript (JSX)',
  tsx: 'TypeScript (TSX)',
  py: 'Python',
  java: 'Java',
  c: 'C',
  cpp: 'C++',
  h: 'C Header',
  css: 'CSS',
  scss: 'SCSS',
  html: 'HTML',
  php: 'PHP',
  rb: 'Ruby',
  go: 'Go',
  rs: 'Rust',
  sh: 'Shell',
};

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

export function classifyPreview(name: string, mime?: string | null): PreviewKind {
  const ext = extensionOf(name);
  if (IMAGE.includes(ext)) return 'image';
  if (VIDEO.includes(ext)) return 'video';
  if (AUDIO.includes(ext)) return 'audio';
  if (ext in LANGUAGES) return 'text';
  if (ext === 'pdf') return 'pdf';
  if (ARCHIVE.includes(ext)) return 'archive';
  const m = (mime ?? '').toLowerCase().split(';')[0]!.trim();
  if (m.startsWith('image/')) return 'image';
  if (m.startsWith('video/')) return 'video';
  if (m.startsWith('audio/')) return 'audio';
  if (m === 'application/pdf') return 'pdf';
  if (m.startsWith('text/') || m === 'application/json' || m === 'application/xml') return 'text';
  return 'unsupported';
}

export function isPreviewable(name: string, mime?: string | null): boolean {
  const kind = classifyPreview(name, mime);
  return kind !== 'archive' && kind !== 'unsupported';
}

export function languageOf(name: string): string {
  return LANGUAGES[extensionOf(name)] ?? 'Plain Text';
}

/** The card's type line: Folder, or the extension in capitals, or the mime type. */
export function typeLabel(entry: { type: 'file' | 'directory'; basename: string; mime: string | null }): string {
  if (entry.type === 'directory') return 'Folder';
  const ext = extensionOf(entry.basename);
  return ext ? ext.toUpperCase() : (entry.mime ?? 'File');
}

export function lineCount(text: string): number {
  if (text === '') return 0;
  const lines = text.split(/\r\n|\r|\n/).length;
  return /(\r\n|\r|\n)$/.test(text) ? lines - 1 : lines;
}
