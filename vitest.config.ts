import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeViewPlugin } from './scripts/code-view-plugin.mjs';
import { lessonPlugin } from './scripts/lesson-plugin.mjs';
import { extensionGraphPlugin } from './scripts/extension-graph-plugin.mjs';
import { zodClassicPlugin } from './scripts/zod-classic-plugin.mjs';

/**
 * Svelte's browser runtime. The page's feature classes (`web/src/app/*.svelte.ts`) are runes, and
 * their tests read their state as a view would, with effects and `flushSync`: that needs the
 * runtime the browser runs. In Node, `svelte` would resolve to its server build, whose effects never run.
 * (The real path, so the page's modules and the tests share one runtime.)
 */
const svelteClient = join(dirname(createRequire(import.meta.url).resolve('svelte/package.json')), 'src/index-client.js');

// Unit tests run in Node: the domain is pure, and the store runs on fake-indexeddb.
export default defineConfig({
  // `virtual:extension-source`, as the build makes it: the Code view's tests read what the page ships.
  // The lessons' virtual modules too, as the build makes them (the tutorial's tests import the index).
  plugins: [
    codeViewPlugin(),
    extensionGraphPlugin(),
    // `pi.zod` (issue 37), as the worker gets it.
    zodClassicPlugin(),
    lessonPlugin(),
    // `*.svelte.ts` compiled as for the page (`client`), not for a server as Vite would in Node.
    svelte({ configFile: fileURLToPath(new URL('./svelte.config.js', import.meta.url)), dynamicCompileOptions: () => ({ generate: 'client' }) }),
  ],
  resolve: {
    alias: [
      { find: '$domain', replacement: fileURLToPath(new URL('./domain', import.meta.url)) },
      { find: /^svelte$/, replacement: svelteClient },
    ],
  },
  test: {
    include: ['domain/**/*.test.ts', 'providers/**/*.test.ts', 'lessons/**/*.test.ts', 'web/src/**/*.test.ts', 'scripts/**/*.test.ts', 'docs/**/*.test.ts'],
    environment: 'node',
    reporters: ['default'],
  },
});
