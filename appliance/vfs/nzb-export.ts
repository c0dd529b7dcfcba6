import { layoutToNzbFiles, toNzbXml } from '../nzb/index.js';
import type { VfsService } from './vfs.service.js';
import { AppError } from '../errors/app-error.js';

/**
 * A valid NZB for one virtual file, from its stored article map: one `<file>` per posted file its articles come
 * from (a joined split file has several; a file inside archive volumes names the volumes it spans). Poster,
 * subject, numbers and encoded sizes are the original ones when the importer kept them; otherwise honest
 * stand-ins (numbers in order, decoded sizes).
 */
export function exportNzb(vfs: VfsService, path: string): { filename: string; xml: string } {
  const node = vfs.requireNode(path);
  if (node.type !== 'file' || !node.layoutId) throw new AppError('NOT_A_FILE', `Not an imported file: ${node.path}`);
  const layout = vfs.layout(node);
  const files = layoutToNzbFiles(layout, {
    poster: 'Spool <spool@localhost>',
    date: Math.floor(node.createdAt / 1000),
    subject: `"${node.name}" yEnc (1/${layout.segments.length})`,
    groups: layout.groups?.length ? layout.groups : ['alt.binaries.misc'],
  });
  return { filename: `${node.name}.nzb`, xml: toNzbXml(files, { name: [node.name] }) };
}
