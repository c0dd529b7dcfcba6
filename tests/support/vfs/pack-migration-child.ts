/**
 * Runs the vfs migrations on the store at argv[2] and kills itself (SIGKILL, no clean-up of any kind) once the
 * packing step (migration 3) has rewritten argv[3] layouts: a crash in the middle of the migration, for
 * appliance/vfs/tree.migrations.test.ts.
 */
import { migrate, openStore } from '../../../appliance/store/index.js';
import { packLayouts, VFS_MIGRATIONS } from '../../../appliance/vfs/tree.migrations.js';

const [rootPath, killAfter] = process.argv.slice(2);
const store = openStore({ rootPath: rootPath! });
const steps = VFS_MIGRATIONS.map((m) =>
  m.version !== 3
    ? m
    : {
        ...m,
        up: () => {
          packLayouts(store, (done) => {
            if (done === Number(killAfter)) process.kill(process.pid, 'SIGKILL');
          });
        },
      },
);
migrate(store, 'vfs', steps);
console.log('finished without being killed');
