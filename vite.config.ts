import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { VitePWA } from 'vite-plugin-pwa';
import { fileURLToPath } from 'node:url';
import { seedDeskExtension } from './scripts/build-extension.mjs';
import { codeViewPlugin } from './scripts/code-view-plugin.mjs';

// The page lives in web/ (DESIGN layout); the pure domain sits beside it in domain/.
const root = fileURLToPath(new URL('./web', import.meta.url));

export default defineConfig({
  root,
  publicDir: 'public',
  plugins: [
    // The OMP extension built from the same domain, offered for download as seed-desk.js next to index.html (under the base).
    seedDeskExtension(),
    // The Code tab's source, highlighted at build time: `virtual:extension-source`, loaded only when the tab opens.
    codeViewPlugin(),
    svelte({ configFile: fileURLToPath(new URL('./svelte.config.js', import.meta.url)) }),
    // Offline after the first load: Workbox precaches every built file (page, worker, styles).
    // main.ts registers the service worker in production builds only (no inline script: CSP).
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: false,
      manifest: false, // web/public/manifest.webmanifest is served as it is, in dev and in the build
      workbox: { globPatterns: ['**/*.{js,css,html,svg,png,ico,json,webmanifest}'], navigateFallback: 'index.html', cleanupOutdatedCaches: true },
    }),
  ],
  resolve: {
    alias: { $domain: fileURLToPath(new URL('./domain', import.meta.url)) },
  },
  worker: { format: 'es' },
  // The worker's dependencies, bundled when the dev server starts: found only when the worker
  // first loads, they would make the server re-bundle and reload the page on its first visit.
  optimizeDeps: { include: ['idb', 'fast-deep-equal'] },
  build: { outDir: '../dist', emptyOutDir: true, target: 'es2022' },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
});
