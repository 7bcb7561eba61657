import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

// The storage benchmark page: built apart from the app so no bench code ships in dist/.
export default defineConfig({
  root: fileURLToPath(new URL('./browser', import.meta.url)),
  resolve: { alias: { $domain: fileURLToPath(new URL('../domain', import.meta.url)) } },
  build: { outDir: fileURLToPath(new URL('../bench-dist', import.meta.url)), emptyOutDir: true, target: 'es2022' },
  // Cross-origin isolation lifts performance.now() from 100 µs to 5 µs resolution in Chromium.
  preview: { host: '127.0.0.1', port: 4174, strictPort: true, headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' } },
  logLevel: 'warn',
});
