// Bundle budgets on the production build (dist/): the JavaScript the first screen loads, and the
// worker. Gzip at the default level, as Vite reports it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export const MAIN_BUDGET = 70 * 1024;
export const WORKER_BUDGET = 40 * 1024;

const gzipped = (path) => gzipSync(readFileSync(path)).length;

/** Scripts index.html loads before anything is clicked: module entries, modulepreloads, classic scripts. */
export function initialScripts(dist = 'dist') {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const sources = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g), ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((match) => match[1]);
  return [...new Set(sources)].map((source) => join(dist, source.replace(/^\//, '')));
}

export function measureBudgets(dist = 'dist') {
  const main = initialScripts(dist).map((path) => ({ path, gzip: gzipped(path) }));
  const workers = readdirSync(join(dist, 'assets'))
    .filter((name) => /^worker-.*\.js$/.test(name))
    .map((name) => ({ path: join(dist, 'assets', name), gzip: gzipped(join(dist, 'assets', name)) }));
  const mainTotal = main.reduce((sum, file) => sum + file.gzip, 0);
  const workerTotal = workers.reduce((sum, file) => sum + file.gzip, 0);
  return { main, workers, mainTotal, workerTotal };
}

/**
 * Chunks the first screen's scripts reach only through a dynamic `import()`: Vite lists them in the
 * entry's `__vite__mapDeps` table (the dependencies it preloads when an `import()` runs). They load
 * after the first paint or on demand, so they are not part of the first screen's budget; a chunk
 * the entry imports statically is not in that table and must be counted.
 */
export function lazyScripts(dist = 'dist') {
  const lazy = new Set();
  for (const path of initialScripts(dist)) {
    const table = /m\.f=\[([^\]]*)\]/.exec(readFileSync(path, 'utf8'));
    for (const match of table?.[1]?.matchAll(/"([^"]+\.js)"/g) ?? []) lazy.add(`/${match[1].replace(/^\//, '')}`);
  }
  return lazy;
}
