import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import { codeViewPlugin } from './scripts/code-view-plugin.mjs';

// Unit tests run in Node: the domain is pure, and the store runs on fake-indexeddb.
export default defineConfig({
  // `virtual:extension-source`, as the build makes it: the Code view's tests read what the page ships.
  plugins: [codeViewPlugin()],
  resolve: {
    alias: { $domain: fileURLToPath(new URL('./domain', import.meta.url)) },
  },
  test: {
    include: ['domain/**/*.test.ts', 'web/src/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    reporters: ['default'],
  },
});
