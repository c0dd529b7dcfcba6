const TYPES: Record<string, string> = {
  mkv: 'video/x-matroska',
  mp4: 'video/mp4',
  m4v: 'video/x-m4v',
  avi: 'video/x-msvideo',
  mov: 'video/quicktime',
  webm: 'video/webm',
  wmv: 'video/x-ms-wmv',
  flv: 'video/x-flv',
  ts: 'video/mp2t',
  mpg: 'video/mpeg',
  mp3: 'audio/mpeg',
  flac: 'audio/flac',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  wma: 'audio/x-ms-wma',
  srt: 'application/x-subrip',
  ass: 'text/x-ssa',
  sub: 'text/plain',
  nfo: 'text/plain',
  txt: 'text/plain',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  nzb: 'application/x-nzb',
  xml: 'application/xml',
  json: 'application/json',
  pdf: 'application/pdf',
};

/** Media type by extension; unknown types are served as opaque bytes. */
export function mimeOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return (dot >= 0 && TYPES[name.slice(dot + 1).toLowerCase()]) || 'application/octet-stream';
}

/**
 * Whether a browser may show the file in place: media (video, audio, raster images) and plain text such as .nfo
 * and subtitles. Everything else (XML, JSON, PDF, unknown bytes, a sidecar someone uploaded as .html) is sent as
 * an attachment, so opening its URL downloads it instead of rendering it at the console's origin.
 */
export function showsInline(type: string): boolean {
  return (
    /^(video|audio)\//.test(type) ||
    (/^image\//.test(type) && !type.includes('svg')) ||
    /^text\/(plain|x-ssa)/.test(type) ||
    type === 'application/x-subrip'
  );
}
