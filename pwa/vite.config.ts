import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

const root = fileURLToPath(new URL('.', import.meta.url));
const outDir = fileURLToPath(new URL('../dist/pwa', import.meta.url));

/**
 * The footer's Source and issue links come from package.json (`repository`, `bugs`): a fork or release that sets
 * them gets links to its own repository; without them the footer shows none rather than an address that does not
 * exist.
 */
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
  repository?: string | { url?: string };
  bugs?: string | { url?: string };
};
const urlOf = (v: string | { url?: string } | undefined) =>
  (typeof v === 'string' ? v : (v?.url ?? '')).replace(/^git\+/, '').replace(/\.git$/, '');
const projectLinks = { version: pkg.version, source: urlOf(pkg.repository), issues: urlOf(pkg.bugs) };

/** Server paths the service worker must never answer with the cached shell. */
const serverRoutes = [/^\/api(\/|$)/, /^\/sabnzbd(\/|$)/, /^\/webdav(\/|$)/, /^\/ping(\/|$)/];

export default defineConfig({
  root,
  define: { __SPOOL_PROJECT__: JSON.stringify(projectLinks) },
  publicDir: 'public',
  build: { outDir, emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 700 },
  server: {
    // `npm run dev` of the appliance listens on 8080; proxy its routes so the console can run under Vite.
    proxy: Object.fromEntries(['/api', '/sabnzbd', '/webdav', '/ping'].map((p) => [p, 'http://127.0.0.1:8080'])),
  },
  plugins: [
    react(),
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['favicon.svg', 'icons/apple-touch-icon.png'],
      manifest: {
        name: 'Spool',
        short_name: 'Spool',
        description: 'Stream media straight from Usenet: queue, health, files and configuration.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: '#111827',
        background_color: '#0b0f17',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        navigateFallback: 'index.html',
        navigateFallbackDenylist: serverRoutes,
        cleanupOutdatedCaches: true,
      },
    }),
  ],
});
