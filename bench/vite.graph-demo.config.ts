import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';

// The session graph's development page (bench/graph-demo): built apart from the app, never shipped.
export default defineConfig({
  root: fileURLToPath(new URL('./graph-demo', import.meta.url)),
  plugins: [svelte({ configFile: fileURLToPath(new URL('../svelte.config.js', import.meta.url)) })],
  resolve: { alias: { $domain: fileURLToPath(new URL('../domain', import.meta.url)) } },
  build: { outDir: fileURLToPath(new URL('../bench-dist/graph-demo', import.meta.url)), emptyOutDir: true, target: 'es2022', minify: false },
  server: { host: '127.0.0.1', port: 4183, strictPort: true, fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] } },
  preview: { host: '127.0.0.1', port: 4183, strictPort: true },
  logLevel: 'warn',
});
