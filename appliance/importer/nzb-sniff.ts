/**
 * Whether uploaded bytes can be an NZB at all, checked at the upload so an empty file or a renamed video is
 * refused there (400) instead of failing in the queue later. Only the prolog and the root element's name are
 * looked at (an XML declaration, comments, a DOCTYPE, then `<nzb`); whether the NZB is well formed is the
 * parser's job at import, which reports line and column.
 */
export function nzbContentProblem(bytes: Uint8Array): string | undefined {
  const window = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 64 * 1024));
  let text = window.toString('latin1');
  if (text.startsWith('\xef\xbb\xbf')) text = text.slice(3); // UTF-8 byte order mark
  if (text.trim() === '') return 'the file is empty';
  let i = 0;
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (i >= text.length) return undefined; // a prolog longer than the window: the parser decides
    const skipTo = (end: string) => {
      const at = text.indexOf(end, i);
      return at < 0 ? text.length : at + end.length;
    };
    if (text.startsWith('<?', i)) i = skipTo('?>');
    else if (text.startsWith('<!--', i)) i = skipTo('-->');
    else if (/^<!DOCTYPE/i.test(text.slice(i, i + 9))) {
      const close = text.indexOf('>', i);
      const subset = text.indexOf('[', i);
      i = subset >= 0 && (close < 0 || subset < close) ? skipTo(']') : i;
      i = skipTo('>');
    } else break;
  }
  return /^<([A-Za-z_][\w.-]*:)?nzb[\s/>]/i.test(text.slice(i, i + 64))
    ? undefined
    : 'the file is not an NZB (its content does not start with an <nzb> element)';
}
