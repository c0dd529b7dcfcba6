import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where one of our native addons was built: `appliance/<domain>/native/build/Release/<file>` of the checkout
 * (scripts/build-native.mjs). The server may run from the sources (tsx), from dist/appliance/<domain> or from a
 * private build folder deeper down (benchmarks), so this looks upwards from the calling module.
 */
export function addonPath(fromModuleUrl: string, domain: string, file: string): string | undefined {
  const built = join('native', 'build', 'Release', file);
  let dir = dirname(fileURLToPath(fromModuleUrl));
  for (let i = 0; i < 8; i++) {
    for (const p of [join(dir, built), join(dir, 'appliance', domain, built)]) if (existsSync(p)) return p;
    dir = dirname(dir);
  }
  return undefined;
}
