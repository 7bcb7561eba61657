import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import { codeViewPlugin } from './scripts/code-view-plugin.mjs';
import { lessonPlugin } from './scripts/lesson-plugin.mjs';
import { extensionGraphPlugin } from './scripts/extension-graph-plugin.mjs';

// Unit tests run in Node: the domain is pure, and the store runs on fake-indexeddb.
export default defineConfig({
  // `virtual:extension-source`, as the build makes it: the Code view's tests read what the page ships.
  // The lessons' virtual modules too, as the build makes them (the tutorial's tests import the index).
  // Svelte compiles the page's `*.svelte.ts` state (runes) for its unit tests.
  plugins: [svelte({ configFile: fileURLToPath(new URL('./svelte.config.js', import.meta.url)) }), codeViewPlugin(), extensionGraphPlugin(), lessonPlugin()],
  resolve: {
    alias: { $domain: fileURLToPath(new URL('./domain', import.meta.url)) },
  },
  test: {
    include: ['domain/**/*.test.ts', 'lessons/**/*.test.ts', 'web/src/**/*.test.ts', 'scripts/**/*.test.ts', 'docs/**/*.test.ts'],
    environment: 'node',
    reporters: ['default'],
  },
});
