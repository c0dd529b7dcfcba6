/**
 * npm run bench: runs every bench/*.bench.ts (each exports `run(log) -> markdown`) one after another and prints
 * their reports. Pass names to run a subset: `npm run bench -- nntp`.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
  .sort();

for (const file of benches) {
  console.error(`== ${file}`);
  const mod = (await import(pathToFileURL(path.join(here, file)).href)) as {
    run?: (log: (m: string) => void) => Promise<string>;
  };
  if (typeof mod.run !== 'function') throw new Error(`${file} does not export run()`);
  console.log(`\n## ${file}\n\n${await mod.run((m) => console.error(`   ${m}`))}\n`);
}
