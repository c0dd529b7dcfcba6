/**
 * A restart's first look at a tree: opens the LMDB store under argv[2] (data dir argv[3]) as the app does
 * (treeStorage.lmdb: the 'vfs' migrations, then `openTreeNodes`), walks the whole tree from the root through its
 * listings, and writes every node as one line of `serializeNode` to the file argv[4], then `files <n> layouts <m>`
 * (files whose layout reads) on stdout. For tests/integration/vfs/tree-nodes-scale.test.ts.
 */
import { writeFileSync } from 'node:fs';
import { createLogger } from '../../../appliance/logging/logger.js';
import { openStore } from '../../../appliance/store/index.js';
import { treeStorage } from '../../../appliance/vfs/tree.storage.js';
import { serializeNode } from './legacy-nodes.js';

const [rootPath, dataDir, out] = process.argv.slice(2);
const local = openStore({ rootPath: rootPath! });
const { tree } = treeStorage.lmdb({ local, dataDir: dataDir!, logger: createLogger('dump', 'error') });
const lines: string[] = [];
let files = 0;
let layouts = 0;
const walk = (dir: string): void => {
  for (const node of tree.children(dir)) {
    lines.push(serializeNode(node));
    if (node.type === 'directory') walk(node.path);
    else if (++files && node.layoutId && tree.layout(node.layoutId)) layouts++;
  }
};
walk('/');
writeFileSync(out!, lines.join('\n'));
await local.close();
console.log(`files ${files} layouts ${layouts}`);
