import type { FileLayout, LayoutPost } from '../layout/index.js';
import { packSegments } from './segment-writer.js';
import type { NzbSegment } from './segments.js';
import type { NzbFile, NzbMeta } from './types.js';

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Escapes text for an attribute or element body; drops characters XML 1.0 cannot carry at all. */
export function escapeXml(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\x00-\x08\x0b\x0c\x0e-\x1f]/g, '').replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
}

/**
 * A standalone NZB for one virtual file: one `<file>` per posted part (a joined `.001`/`.002` file has several),
 * in order, with the original subjects, posters, groups and segments. The optional meta is written into `<head>`
 * (e.g. the job's password), so the export can be re-imported by any NZB client.
 */
export function toNzbXml(parts: readonly NzbFile[], meta: NzbMeta = {}): string {
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE nzb PUBLIC "-//newzBin//DTD NZB 1.1//EN" "http://www.newzbin.com/DTD/nzb/nzb-1.1.dtd">',
    '<nzb xmlns="http://www.newzbin.com/DTD/2003/nzb">',
  ];
  const metaEntries = Object.entries(meta).flatMap(([type, values]) => values.map((v) => [type, v] as const));
  if (metaEntries.length > 0) {
    out.push('  <head>');
    for (const [type, value] of metaEntries) out.push(`    <meta type="${escapeXml(type)}">${escapeXml(value)}</meta>`);
    out.push('  </head>');
  }
  for (const part of parts) {
    out.push(
      `  <file poster="${escapeXml(part.poster)}" date="${part.date}" subject="${escapeXml(part.subject)}">`,
      '    <groups>',
    );
    for (const group of part.groups) out.push(`      <group>${escapeXml(group)}</group>`);
    out.push('    </groups>', '    <segments>');
    for (const s of part.segments) {
      out.push(`      <segment bytes="${s.bytes}" number="${s.number}">${escapeXml(s.messageId)}</segment>`);
    }
    out.push('    </segments>', '  </file>');
  }
  out.push('</nzb>', '');
  return out.join('\n');
}

/**
 * The posted files behind a layout, for `toNzbXml`, from the layout alone: one `<file>` per post its articles came
 * from, in order, with the original numbers and encoded sizes. An article shared by neighbouring slices (a file
 * inside archive volumes) is listed once; an id the NZB named at two numbers is listed at both. Segments without post facts get honest stand-ins (`fallback`).
 */
export function layoutToNzbFiles(layout: FileLayout, fallback: LayoutPost): NzbFile[] {
  const files: { post: LayoutPost; segments: NzbSegment[] }[] = [];
  let current: { post: number | undefined; segments: NzbSegment[] } | undefined;
  const seen = new Set<string>();
  for (const s of layout.segments) {
    // an article shared by neighbouring slices appears twice in a row with the same number; a posted file may name
    // one id at two numbers, and both stay
    const key = `${s.post}\u0000${s.number}\u0000${s.messageId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (!current || current.post !== s.post) {
      const post = (s.post !== undefined && layout.posts?.[s.post]) || fallback;
      current = { post: s.post, segments: [] };
      files.push({ post, segments: current.segments });
    }
    const segment: NzbSegment = {
      number: s.number ?? current.segments.length + 1,
      bytes: s.bytes ?? s.articleSize ?? s.end - s.start,
      messageId: s.messageId,
    };
    current.segments.push(segment);
  }
  return files.map(({ post, segments }) => ({
    ...post,
    segments: packSegments(segments),
    missingCount: 0,
    missingNumbers: [],
    duplicatesDropped: 0,
  }));
}
