import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The browser tests run the built app; say so plainly instead of failing with a spawn error later. */
export default function globalSetup(): void {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  for (const file of ['dist/appliance/main.js', 'dist/pwa/index.html', 'dist/pwa/sw.js']) {
    if (!existsSync(root + file)) throw new Error(`${file} is missing: run \`npm run build\` before the browser tests`);
  }
  if (!existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')) {
    throw new Error('Chromium is missing: apt-get install -y --no-install-recommends chromium');
  }
}
