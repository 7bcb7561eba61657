import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import { codeViewPlugin } from './scripts/code-view-plugin.mjs';
import { lessonPlugin } from './scripts/lesson-plugin.mjs';
import { extensionGraphPlugin } from './scripts/extension-graph-plugin.mjs';

// Unit tests run in Node: the domain is pure, and the store runs on fake-indexeddb.
export default defineConfig({
  // `virtual:extension-source`, as the build makes it: the Code view's tests read what the page ships.
  // The lessons' virtual modules too, as the build makes them (the tutorial's tests import the index).
  plugins: [codeViewPlugin(), extensionGraphPlugin(), lessonPlugin()],
  resolve: {
    alias: { $domain: fileURLToPath(new URL('./domain', import.meta.url)) },
  },
  test: {
    include: ['domain/**/*.test.ts', 'lessons/**/*.test.ts', 'web/src/**/*.test.ts', 'scripts/**/*.test.ts', 'docs/**/*.test.ts'],
    environment: 'node',
    reporters: ['default'],
  },
});
