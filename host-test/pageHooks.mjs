// Node module hooks for the playground side of test:host (registered by pageEdits.ts): the worker's
// "Run my version" path runs in Node as in the browser, with what only Vite provides replaced —
// the three `virtual:extension-*` modules made by the same plugin code (scripts/extension-graph-plugin.mjs),
// the compiler on esbuild-wasm's Node build instead of its browser build, and the compiled module
// imported from a data: URL (Node cannot import blob: URLs). The editing code itself is the worker's.
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = new URL('./', import.meta.url);
const VIRTUAL = new URL('./out/virtual/', here);
const REDIRECTS = { './compiler': new URL('./pageCompiler.ts', here).href, './editedModule': new URL('./pageEditedModule.ts', here).href };
let made;

async function sources() {
  made ??= (async () => {
    const plugin = await import(pathToFileURL(fileURLToPath(new URL('../scripts/extension-graph-plugin.mjs', here))).href);
    const graph = await plugin.extensionGraph();
    const npm = await plugin.npmNames(graph);
    const hash = plugin.graphHash(graph, npm);
    return {
      'extension-graph': [`export const entry = ${JSON.stringify(graph.entry)};`, `export const files = ${JSON.stringify(graph.files)};`, `export const npm = ${JSON.stringify(npm)};`, `export const hash = ${JSON.stringify(hash)};`].join('\n'),
      'extension-npm': plugin.npmModuleSource(npm, hash),
      // `pi.zod` for an own extension (scripts/zod-classic-plugin.mjs).
      'zod-classic': await (await import(pathToFileURL(fileURLToPath(new URL('../scripts/zod-classic-plugin.mjs', here))).href)).zodClassicSource(),
    };
  })();
  return made;
}

export async function resolve(specifier, context, next) {
  if (specifier.startsWith('virtual:extension-') || specifier === 'virtual:zod-classic') return { url: new URL(`${specifier.slice('virtual:'.length)}.mjs`, VIRTUAL).href, shortCircuit: true };
  if (specifier in REDIRECTS && context.parentURL?.endsWith('/web/src/worker/edit/editing.ts')) return next(REDIRECTS[specifier], context);
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (!url.startsWith(VIRTUAL.href)) return next(url, context);
  const name = url.slice(VIRTUAL.href.length).replace(/\.mjs$/, '');
  const source = (await sources())[name];
  if (source === undefined) throw new Error(`test:host provides no virtual module ${name}`);
  return { format: 'module', source, shortCircuit: true };
}
