import type { BuildContext, BuildFailure, BuildOptions, BuildResult, Message, Plugin } from 'esbuild-wasm';
import type { CompileProblem } from '../../protocol/messages';

/**
 * The learner's edited extension, bundled by esbuild from a virtual file system: every file of the
 * shipped extension's import graph (made at build time, `virtual:extension-graph`), each replaced
 * by the learner's text where they edited it. Nothing is read from anywhere else: an import that
 * names no file of the graph is a compile error, and npm modules come from shims. Pure over the
 * `build` function it is given: the worker passes esbuild-wasm's, the tests Node's.
 */

/** The shipped extension's import graph, as `virtual:extension-graph` gives it. */
export interface ExtensionGraph {
  readonly entry: string;
  readonly files: Readonly<Record<string, string>>;
  /** npm specifier → the names the shipped graph takes from it. */
  readonly npm: Readonly<Record<string, readonly string[]>>;
}

/** The download's npm code (`virtual:extension-npm-bundle`): one ES module, and what each name is exported as. */
export interface NpmBundle {
  readonly code: string;
  readonly exportNames: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/**
 * `run`: npm names come from the worker's own modules through a global the loader sets
 * (`NPM_GLOBAL`), so the bundle carries none of zod. `download`: npm code is bundled in, as
 * `npm run build:extension` does, so the file stands alone in the real host.
 */
export type CompileMode = { readonly kind: 'run' } | { readonly kind: 'download'; readonly npm: NpmBundle };

export type CompileOutcome = { readonly ok: true; readonly code: string } | { readonly ok: false; readonly problems: CompileProblem[] };

/** The part of esbuild's API used here: esbuild-wasm's in the worker, Node's in the tests. */
export interface Esbuild {
  build(options: BuildOptions & { write: false }): Promise<BuildResult>;
  context(options: BuildOptions & { write: false }): Promise<BuildContext>;
}

/** `globalThis[Symbol.for(NPM_GLOBAL)]`: specifier → the worker's own exports, set before the bundle is imported. */
export const NPM_GLOBAL = 'seed-desk-playground:npm';
export const DOWNLOAD_FILE = 'seed-desk-edited.js';

const FILE = 'extension-file';
const NPM = 'npm-module';
const NPM_BUNDLE = 'npm-bundle.js';

/** Edits to files that are not in the graph: a learner's file must replace one the extension has. */
export function unknownFiles(graph: ExtensionGraph, edits: Readonly<Record<string, string>>): CompileProblem[] {
  return Object.keys(edits)
    .filter((path) => !Object.hasOwn(graph.files, path))
    .map((path) => ({ file: path, line: 0, column: 0, text: `${path} is not one of the extension's files, so nothing would import it.` }));
}

/**
 * A compiler over one graph. "Run my version" uses one incremental esbuild context: a rebuild
 * parses again only the files whose text changed (the learner's), which is what keeps a run fast
 * once the compiler is loaded. The download, rare, is a plain build with npm code bundled in.
 */
export function makeCompiler(esbuild: Esbuild, graph: ExtensionGraph, { incremental = true } = {}): (edits: Readonly<Record<string, string>>, mode: CompileMode) => Promise<CompileOutcome> {
  let edits: Readonly<Record<string, string>> = {};
  const text = (path: string): string | undefined => (Object.hasOwn(edits, path) ? edits[path] : Object.hasOwn(graph.files, path) ? graph.files[path] : undefined);
  let running: Promise<BuildContext> | null = null;
  return async (next, mode) => {
    const unknown = unknownFiles(graph, next);
    if (unknown.length > 0) return { ok: false, problems: unknown };
    // The context's plugin reads `edits` on every rebuild, a file back to its shipped text
    // included (editing.test.ts, e2e/edit-extension.spec.ts: what was seen stale was the editor's).
    edits = next;
    try {
      let result: BuildResult;
      if (mode.kind === 'run' && incremental) {
        running ??= esbuild.context(optionsFor(graph, text, mode));
        result = await (await running).rebuild();
      } else result = await esbuild.build(optionsFor(graph, text, mode));
      const [file] = result.outputFiles ?? [];
      if (!file) return { ok: false, problems: [{ file: null, line: 0, column: 0, text: 'esbuild produced no output.' }] };
      return { ok: true, code: file.text };
    } catch (error) {
      const messages = (error as Partial<BuildFailure>).errors;
      if (!Array.isArray(messages) || messages.length === 0) throw error;
      return { ok: false, problems: messages.map((message) => problemOf(message, text)) };
    }
  };
}

/** One compile, without a kept context. */
export function compileExtension(esbuild: Esbuild, graph: ExtensionGraph, edits: Readonly<Record<string, string>>, mode: CompileMode): Promise<CompileOutcome> {
  return makeCompiler(esbuild, graph, { incremental: false })(edits, mode);
}

/**
 * How the worker bundles a learner's files, edited Seed Desk or own extension alike: one ES module
 * for OMP's loader, nothing written, esbuild's messages read as compile problems. A name a module
 * does not export would be `undefined` at run time: esbuild says so where it is used.
 */
export const LEARNER_BUILD = {
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  write: false,
  logLevel: 'silent',
  logOverride: { 'import-is-undefined': 'error' },
} as const satisfies BuildOptions;

function optionsFor(graph: ExtensionGraph, text: (path: string) => string | undefined, mode: CompileMode): BuildOptions & { write: false } {
  return {
    entryPoints: [graph.entry],
    ...LEARNER_BUILD,
    ...(mode.kind === 'download'
      ? { legalComments: 'eof', banner: { js: '// Seed Desk extension for OMP: YOUR EDITED VERSION (built in the Seed Desk Playground). Install: copy into ~/.omp/agent/extensions/' } }
      : { legalComments: 'none' }),
    plugins: [virtualFiles(graph, text, mode)],
  };
}

function virtualFiles(graph: ExtensionGraph, text: (path: string) => string | undefined, mode: CompileMode): Plugin {
  const specifiers = Object.keys(graph.npm);
  return {
    name: 'seed-desk-virtual-files',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        // esbuild may hand the entry back as `./extension/seed-desk.ts`.
        if (args.kind === 'entry-point') return { path: args.path.replace(/^\.\//, ''), namespace: FILE };
        if (args.namespace === NPM && args.path === NPM_BUNDLE) return { path: NPM_BUNDLE, namespace: NPM };
        if (args.path.startsWith('.')) {
          const target = args.namespace === FILE ? resolveRelative(graph.files, args.importer, args.path) : null;
          if (target) return { path: target, namespace: FILE };
          return { errors: [{ text: `"${args.path}" names none of the extension's files (only they can be imported; a new file cannot be added here).` }] };
        }
        if (specifiers.includes(args.path)) return { path: args.path, namespace: NPM };
        return { errors: [{ text: `"${args.path}" cannot be imported here: the extension may import its own files and ${specifiers.map((name) => `"${name}"`).join(', ')}.` }] };
      });
      build.onLoad({ filter: /.*/, namespace: FILE }, (args) => ({ contents: text(args.path) ?? '', loader: args.path.endsWith('.json') ? 'json' : 'ts' }));
      build.onLoad({ filter: /.*/, namespace: NPM }, (args) => {
        if (mode.kind === 'download') return { contents: args.path === NPM_BUNDLE ? mode.npm.code : reexport(args.path, mode.npm), loader: 'js' };
        return { contents: shim(args.path, graph.npm[args.path] ?? []), loader: 'js' };
      });
    },
  };
}

/** A relative import from one graph file: as written, then `.ts`, then `/index.ts` (as the build resolved them). */
export function resolveRelative(files: Readonly<Record<string, string>>, importer: string, specifier: string): string | null {
  const parts = importer.split('/').slice(0, -1);
  for (const part of specifier.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  const base = parts.join('/');
  for (const candidate of [base, `${base}.ts`, `${base}/index.ts`]) if (Object.hasOwn(files, candidate)) return candidate;
  return null;
}

/** The run's npm module: the worker's own exports, read from the global the loader set. */
function shim(specifier: string, names: readonly string[]): string {
  const where = `globalThis[Symbol.for(${JSON.stringify(NPM_GLOBAL)})]?.[${JSON.stringify(specifier)}]`;
  return [
    `const m = ${where};`,
    `if (!m) throw new Error(${JSON.stringify(`${specifier} is provided by the playground's worker only.`)});`,
    ...names.map((name, index) => `const n${index} = m[${JSON.stringify(name)}];`),
    `export { ${names.map((name, index) => `n${index} as ${name}`).join(', ')} };`,
  ].join('\n');
}

/** The download's npm module: the names from the bundled npm code. */
function reexport(specifier: string, npm: NpmBundle): string {
  const names = Object.entries(npm.exportNames[specifier] ?? {});
  return `export { ${names.map(([name, exported]) => `${exported} as ${name}`).join(', ')} } from ${JSON.stringify(NPM_BUNDLE)};`;
}

/** An esbuild message as file, line and column (1-based; esbuild counts columns in UTF-8 bytes, the editor in UTF-16 units). `namespace`: the plugin's, taken out of the names. */
export function problemOf(message: Message, text: (path: string) => string | undefined, namespace = FILE): CompileProblem {
  const location = message.location;
  const clean = (value: string) => value.replaceAll(`${namespace}:`, '').replaceAll(`${NPM}:`, '');
  if (!location) return { file: null, line: 0, column: 0, text: clean(message.text) };
  const file = clean(location.file);
  // The line as the learner wrote it (esbuild's `lineText` may be cut); an npm shim has only esbuild's.
  const lineText = text(file)?.split('\n')[location.line - 1] ?? location.lineText;
  return { file, line: location.line, column: utf16Column(lineText, location.column) + 1, text: clean(message.text) };
}

/** The UTF-16 index in `line` of the character at UTF-8 byte `bytes`. */
export function utf16Column(line: string, bytes: number): number {
  let seen = 0;
  let index = 0;
  for (const char of line) {
    if (seen >= bytes) break;
    const code = char.codePointAt(0) ?? 0;
    seen += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    index += char.length;
  }
  return index;
}
