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
