// The extension as the worker compiles a learner's edited version of it (issue 23): every
// repository file in the import graph of extension/seed-desk.ts, as text, made at build time.
//
// `virtual:extension-graph` (the compiler's chunk, loaded on "Run my version"): the entry, every
// file of the graph (path → text; type-only imports included, so a learner who turns one into a
// value import still finds the file), the npm modules the graph imports and the names it takes
// from each, and a hash of it all. The worker bundles from exactly these texts, overridden by the
// learner's edits: nothing resolves to another copy, and the learner's bundle needs no node_modules.
//
// `virtual:extension-npm` (the edited extension's loader, in the worker): those npm names taken
// from the worker's own modules (zod/mini is already in the worker; picking named members keeps it
// tree-shaken), handed to the learner's bundle through a shim module; and the graph's hash, so a
// stored compiled version is reused only when it was made from these very files.
//
// `virtual:extension-npm-bundle` (the download only): the same npm names bundled into one ES module
// text by esbuild at build time, so "Download my version" gives one self-contained file with zod
// in it, as `npm run build:extension` does.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLE_OPTIONS } from './build-extension.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export const GRAPH_ID = 'virtual:extension-graph';
export const NPM_ID = 'virtual:extension-npm';
export const NPM_BUNDLE_ID = 'virtual:extension-npm-bundle';
const IDS = [GRAPH_ID, NPM_ID, NPM_BUNDLE_ID];
const resolved = (id) => `\0${id}`;

/** The module the host loads, from the repository's root. */
export const GRAPH_ENTRY = 'extension/seed-desk.ts';

/** A relative specifier to a file of the repository: as written, then `.ts`, then `/index.ts`. */
function resolveRelative(root, importer, specifier) {
  const base = posix.normalize(posix.join(posix.dirname(importer), specifier));
  for (const candidate of [base, `${base}.ts`, `${base}/index.ts`]) {
    if (/\.(ts|json)$/.test(candidate) && existsSync(join(root, candidate))) return candidate;
  }
  return null;
}

let typescript;
const loadTypescript = async () => (typescript ??= (await import('typescript')).default);

/**
 * The import graph of `entry`: every repository file reachable by relative imports (`import type`
 * and `export … from` included), with its text, and the bare (npm) specifiers it reaches. An
 * import that names no file is an error: the compiled extension would not find it either.
 */
export async function extensionGraph(root = ROOT, entry = GRAPH_ENTRY) {
  const ts = await loadTypescript();
  const files = new Map();
  const bare = new Set();
  const edges = [];
  const queue = [entry];
  while (queue.length > 0) {
    const path = queue.shift();
    if (files.has(path)) continue;
    const text = readFileSync(join(root, path), 'utf8');
    files.set(path, text);
    if (path.endsWith('.json')) continue;
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith('.')) {
        bare.add(fileName);
        continue;
      }
      const target = resolveRelative(root, path, fileName);
      if (!target) throw new Error(`${path}: "${fileName}" names no file of the repository`);
      edges.push([path, target]);
      queue.push(target);
    }
  }
  const sorted = [...files.keys()].sort();
  return { entry, files: Object.fromEntries(sorted.map((path) => [path, files.get(path)])), bare: [...bare].sort(), edges };
}

/**
 * What the graph takes from each npm module, read from the JavaScript esbuild makes of each file
 * (types and comments gone, so `z.infer<…>` and a `z.toJSONSchema` in a comment do not count):
 * `import * as z` → every `z.<name>`, `import x` → `default`, `import { a, b as c }` → a, b.
 */
export async function npmNames(graph) {
  const { transform } = await import('esbuild');
  const names = new Map(graph.bare.map((specifier) => [specifier, new Set()]));
  for (const [path, text] of Object.entries(graph.files)) {
    if (!path.endsWith('.ts')) continue;
    const { code } = await transform(text, { loader: 'ts', format: 'esm', target: 'es2022' });
    for (const match of code.matchAll(/^(?:import|export)\s+([^;]*?)\s+from\s+"([^"]+)";?$/gm)) {
      const [, clause = '', specifier = ''] = match;
      if (specifier.startsWith('.')) continue;
      const used = names.get(specifier);
      if (!used) throw new Error(`${path}: imports "${specifier}", which the type-aware scan did not find`);
      if (match[0].startsWith('export')) throw new Error(`${path}: re-exports from "${specifier}"; the edited extension's shim cannot provide that`);
      const namespace = /\*\s+as\s+([A-Za-z_$][\w$]*)/.exec(clause)?.[1];
      if (namespace) for (const member of code.matchAll(new RegExp(`(?<![\\w$.])${namespace.replace(/\$/g, '\\$')}\\.([A-Za-z_$][\\w$]*)`, 'g'))) used.add(member[1]);
      const named = /\{([^}]*)\}/.exec(clause)?.[1];
      if (named) for (const part of named.split(',')) if (part.trim()) used.add(part.trim().split(/\s+as\s+/)[0]);
      const head = clause.replace(/\{[^}]*\}/, '').replace(/\*\s+as\s+[\w$]+/, '').replace(/,/g, ' ').trim();
      if (head) used.add('default');
    }
  }
  return Object.fromEntries([...names].map(([specifier, used]) => [specifier, [...used].sort()]));
}

/** A short hash of every text and name the compiled extension depends on. */
export function graphHash(graph, npm) {
  const hash = createHash('sha256');
  for (const [path, text] of Object.entries(graph.files)) hash.update(`${path}\0${text}\0`);
  hash.update(JSON.stringify(npm));
  return hash.digest('hex').slice(0, 16);
}

/** The export name a module's `name` gets in the download's npm bundle: unique across modules. */
export const bundledName = (index, name) => `npm${index}_${name}`;

/** The npm names bundled by esbuild into one ES module text (the download's copy of zod). */
export async function npmBundle(npm, root = ROOT) {
  const { build } = await import('esbuild');
  const contents = Object.entries(npm)
    .map(([specifier, names], index) => `export { ${names.map((name) => `${name} as ${bundledName(index, name)}`).join(', ')} } from ${JSON.stringify(specifier)};`)
    .join('\n');
  const result = await build({
    ...BUNDLE_OPTIONS,
    absWorkingDir: root,
    stdin: { contents, resolveDir: root, loader: 'js', sourcefile: 'npm-modules.js' },
    legalComments: 'eof',
  });
  const [file] = result.outputFiles;
  if (!file) throw new Error('esbuild produced no npm bundle');
  return file.text;
}

/** The worker's module giving the edited extension the worker's own npm names (no second copy). */
export function npmModuleSource(npm, hash) {
  const imports = [];
  const entries = Object.entries(npm).map(([specifier, names], index) => {
    const members = names.map((name) => {
      if (name === 'default') {
        imports.push(`import npm${index}_default from ${JSON.stringify(specifier)};`);
        return `default: npm${index}_default`;
      }
      return `${JSON.stringify(name)}: npm${index}.${name}`;
    });
    if (names.some((name) => name !== 'default')) imports.push(`import * as npm${index} from ${JSON.stringify(specifier)};`);
    return `  ${JSON.stringify(specifier)}: Object.freeze({ ${members.join(', ')} }),`;
  });
  return [...imports, `export const npmModules = Object.freeze({`, ...entries, `});`, `export const graphHash = ${JSON.stringify(hash)};`].join('\n');
}

/** Vite plugin: the three virtual modules above. */
export function extensionGraphPlugin(root = ROOT) {
  let made;
  const make = () =>
    (made ??= (async () => {
      const graph = await extensionGraph(root);
      const npm = await npmNames(graph);
      return { graph, npm, hash: graphHash(graph, npm) };
    })());
  let bundle;
  return {
    name: 'seed-desk-extension-graph',
    resolveId(id) {
      return IDS.includes(id) ? resolved(id) : null;
    },
    async load(id) {
      if (!IDS.some((candidate) => resolved(candidate) === id)) return null;
      const { graph, npm, hash } = await make();
      for (const path of Object.keys(graph.files)) this.addWatchFile(join(root, path));
      if (id === resolved(NPM_ID)) return npmModuleSource(npm, hash);
      if (id === resolved(NPM_BUNDLE_ID)) {
        const exportNames = Object.fromEntries(Object.entries(npm).map(([specifier, names], index) => [specifier, Object.fromEntries(names.map((name) => [name, bundledName(index, name)]))]));
        return `export const code = ${JSON.stringify(await (bundle ??= npmBundle(npm, root)))};\nexport const exportNames = ${JSON.stringify(exportNames)};`;
      }
      return [
        `export const entry = ${JSON.stringify(graph.entry)};`,
        `export const files = ${JSON.stringify(graph.files)};`,
        `export const npm = ${JSON.stringify(npm)};`,
        `export const hash = ${JSON.stringify(hash)};`,
      ].join('\n');
    },
    // A file of the graph changed (dev server): make everything again.
    watchChange(id) {
      if (!made) return;
      void made.then(({ graph }) => {
        if (Object.keys(graph.files).some((path) => join(root, path) === id)) {
          made = undefined;
          bundle = undefined;
        }
      });
    },
    handleHotUpdate({ file, server, modules }) {
      if (!/[\\/](extension|domain)[\\/]/.test(file)) return;
      made = undefined;
      bundle = undefined;
      const virtual = IDS.map((id) => server.moduleGraph.getModuleById(resolved(id))).filter((module) => module !== undefined);
      for (const module of virtual) server.moduleGraph.invalidateModule(module);
      return [...modules, ...virtual];
    },
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const graph = await extensionGraph();
  const npm = await npmNames(graph);
  console.log(Object.keys(graph.files).join('\n'));
  console.log(JSON.stringify(npm, null, 2));
  console.log(graphHash(graph, npm), `${((await npmBundle(npm)).length / 1024).toFixed(1)} KiB npm bundle`);
}
