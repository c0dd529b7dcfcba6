/**
 * Runs the vfs migrations on the store at argv[2] and kills itself (SIGKILL, no clean-up of any kind) once the
 * node rewrite (migration 4) has rewritten argv[3] nodes in all: a crash in the middle of one of its transactions,
 * after the ones before it committed (appliance/vfs/tree-nodes.store.test.ts).
 */
import { migrate, openStore } from '../../../appliance/store/index.js';
import { restructureNodes, VFS_MIGRATIONS } from '../../../appliance/vfs/tree.migrations.js';

const [rootPath, killAfter] = process.argv.slice(2);
const store = openStore({ rootPath: rootPath! });
let done = 0;
const steps = VFS_MIGRATIONS.map((m) =>
  m.version !== 4
    ? m
    : {
        ...m,
        batch: (s: typeof store, after: unknown) =>
          restructureNodes(s, after, () => {
            if (++done === Number(killAfter)) process.kill(process.pid, 'SIGKILL');
          }),
      },
);
migrate(store, 'vfs', steps);
console.log('finished without being killed');
