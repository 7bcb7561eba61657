// Bundle budgets on the production build (dist/): the JavaScript the first screen loads, and the
// worker. Gzip at the default level, as Vite reports it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export const MAIN_BUDGET = 70 * 1024;
// 44 KiB since issue 37 (docs/decisions.md, "The worker's budget after the extension API"): the agent, session and UI members an own extension uses.
export const WORKER_BUDGET = 44 * 1024;

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
 * Chunks the first screen's scripts reach only through a dynamic `import()`, directly or from
 * another such chunk (the workspace loads its regions, and the Tools region each tab, that way).
 * Two places name them: the `import(`./x.js`)` calls themselves, and Vite's `__vite__mapDeps`
 * table (`m.f=[…]`, the dependencies it preloads when an `import()` runs). A lazy chunk's own
 * static imports load with it, so they are lazy too unless index.html loads them first. They load
 * after the first paint or on demand, so they are not part of the first screen's budget; a chunk
 * the entry imports statically is in neither and must be counted.
 */
export function lazyScripts(dist = 'dist') {
  const initial = new Set(initialScripts(dist).map((path) => `/${path.slice(dist.length + 1).replace(/\\/g, '/')}`));
  const lazy = new Set();
  const read = (script) => readFileSync(join(dist, script.replace(/^\//, '')), 'utf8');
  const assets = (code, pattern) => [...code.matchAll(pattern)].map((match) => `/assets/${match[1].replace(/^(\.\/|\/?assets\/)/, '')}`);
  const queue = [];
  for (const script of initial) {
    const code = read(script);
    const table = /m\.f=\[([^\]]*)\]/.exec(code)?.[1] ?? '';
    queue.push(...assets(table, /"([^"]+\.js)"/g), ...assets(code, /import\(\s*[`"'](\.\/[^`"']+\.js)[`"']\s*\)/g));
  }
  for (let script = queue.shift(); script !== undefined; script = queue.shift()) {
    if (initial.has(script) || lazy.has(script)) continue;
    lazy.add(script);
    const code = read(script);
    // Its dynamic imports, and the chunks it imports statically (`from"./x.js"`, `import"./x.js"`).
    queue.push(...assets(code, /import\(\s*[`"'](\.\/[^`"']+\.js)[`"']\s*\)/g), ...assets(code, /(?:from|import)\s*[`"'](\.\/[^`"']+\.js)[`"']/g));
  }
  return lazy;
}

/**
 * Chunks the worker loads, static or dynamic, from its entry (`worker-*.js`) on: the worker
 * fetches them itself, so they are not the page's scripts. The extension API table
 * (`apiSupport-*.js`) is among them: the worker fetches it as it starts, while the store opens.
 */
export function workerScripts(dist = 'dist') {
  const found = new Set();
  const queue = readdirSync(join(dist, 'assets')).filter((name) => /^worker-.*\.js$/.test(name)).map((name) => `/assets/${name}`);
  for (let script = queue.shift(); script !== undefined; script = queue.shift()) {
    if (found.has(script)) continue;
    found.add(script);
    const code = readFileSync(join(dist, script.slice(1)), 'utf8');
    for (const match of code.matchAll(/(?:import\(\s*|from\s*|import\s*)[`"'](\.\/[^`"']+\.js)[`"']/g)) queue.push(`/assets/${match[1].slice(2)}`);
  }
  return found;
}
