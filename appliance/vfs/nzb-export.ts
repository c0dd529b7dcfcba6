import { toNzbXml } from '../nzb/index.js';
import type { NzbFile } from '../nzb/index.js';
import type { VfsService } from './vfs.service.js';
import { AppError } from '../errors/app-error.js';

/**
 * A valid NZB for one virtual file, from its stored article map. Poster, subject, numbers and encoded sizes are
 * the original ones when the importer kept them; otherwise honest stand-ins (numbers in order, decoded sizes).
 */
export function exportNzb(vfs: VfsService, path: string): { filename: string; xml: string } {
  const node = vfs.requireNode(path);
  if (node.type !== 'file' || !node.layoutId) throw new AppError('BAD_REQUEST', `Not an imported file: ${node.path}`);
  const layout = vfs.layout(node);
  const info = layout.nzb;
  const file: NzbFile = {
    poster: info?.poster ?? 'Spool <spool@localhost>',
    date: info?.date ?? Math.floor(node.createdAt / 1000),
    subject: info?.subject ?? `"${node.name}" yEnc (1/${layout.segments.length})`,
    groups: layout.groups?.length ? layout.groups : ['alt.binaries.misc'],
    segments: layout.segments.map((s, i) => ({
      number: info?.numbers?.[i] ?? i + 1,
      bytes: info?.encodedBytes?.[i] ?? s.end - s.start,
      messageId: s.messageId,
    })),
    missingCount: 0,
    missingNumbers: [],
    duplicatesDropped: 0,
  };
  return { filename: `${node.name}.nzb`, xml: toNzbXml([file], { name: [node.name] }) };
}
