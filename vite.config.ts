import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { VitePWA } from 'vite-plugin-pwa';
import { fileURLToPath } from 'node:url';
import { seedDeskExtension } from './scripts/build-extension.mjs';
import { codeViewPlugin } from './scripts/code-view-plugin.mjs';
import { lessonPlugin } from './scripts/lesson-plugin.mjs';
import { extensionGraphPlugin } from './scripts/extension-graph-plugin.mjs';
import { workerCspPlugin } from './scripts/worker-csp-plugin.mjs';
import { modelPlugin } from './scripts/model-plugin.mjs';
import { zodClassicPlugin } from './scripts/zod-classic-plugin.mjs';

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
    // The lessons (lessons/*/…md), compiled and validated at build time: `virtual:lessons-index` and one `virtual:lesson/<id>` each.
    lessonPlugin(),
    // The worker's own CSP header (blob: imports, 'wasm-unsafe-eval', connect-src 'self') for the edited extension, in dev and preview.
    workerCspPlugin(),
    // The page's CSP connect-src (the model endpoints a learner may use) and pi-ai without its model catalogue (issue 30).
    modelPlugin(),
    // The edited extension's sources for the worker's compiler; here for the dev server (builds take `worker.plugins` below).
    extensionGraphPlugin(),
    // `pi.zod` for a learner's own extension: zod's classic API as text, imported by the worker on first use.
    zodClassicPlugin(),
    svelte({ configFile: fileURLToPath(new URL('./svelte.config.js', import.meta.url)) }),
    // Offline after the first load: Workbox precaches every built file (page, worker, styles).
    // main.ts registers the service worker in production builds only (no inline script: CSP).
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: false,
      manifest: false, // web/public/manifest.webmanifest is served as it is, in dev and in the build
      // `wasm`: the editor's compiler (esbuild-wasm, about 14 MB, over Workbox's 2 MiB default: raised for it on purpose).
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,ico,json,webmanifest,wasm}'],
        maximumFileSizeToCacheInBytes: 16 * 1024 * 1024,
        navigateFallback: 'index.html',
        cleanupOutdatedCaches: true,
      },
    }),
  ],
  resolve: {
    alias: { $domain: fileURLToPath(new URL('./domain', import.meta.url)) },
  },
  // The worker compiles the learner's edited extension from the shipped one's files (`virtual:extension-graph`, issue 23).
  // Its first chunk has a budget (44 KiB gzip since issue 37): the minifier's kept annotations (`@__PURE__`, 337 of them) cost 0.4 KiB there and serve nothing at run time.
  worker: { format: 'es', plugins: () => [extensionGraphPlugin(), zodClassicPlugin()], rolldownOptions: { output: { comments: false } } },
  // The worker's dependencies, bundled when the dev server starts: found only when the worker
  // first loads, they would make the server re-bundle and reload the page on its first visit.
  // The editor's and the compiler's too (loaded on "Edit" and "Run my version").
  optimizeDeps: {
    include: ['idb', 'fast-deep-equal', 'esbuild-wasm/esm/browser.js', 'codemirror', '@codemirror/lang-javascript', '@codemirror/lint', '@codemirror/state', '@codemirror/view', '@codemirror/language', '@lezer/highlight'],
  },
  // The limit sits above the editor's lazy chunk (CodeMirror with TypeScript, about 510 kB minified, loaded on "Edit" only).
  build: { outDir: '../dist', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 600 },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
});
