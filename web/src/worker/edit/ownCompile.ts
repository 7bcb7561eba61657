import type { BuildFailure, BuildOptions, BuildResult, Plugin } from 'esbuild-wasm';
import type { CompileProblem } from '../../protocol/messages';
import { LEARNER_BUILD, problemOf, resolveRelative, type Esbuild } from './compileCore';

/**
 * The learner's own extension (issue 37), bundled by esbuild from their files alone: the entry
 * `my-extension.ts` and any file it imports by a relative path. The page provides no npm package
 * to it: OMP hands an extension its API as `pi` (and `pi.zod`, `pi.typebox`), so the one bare
 * specifier that makes sense is "@oh-my-pi/pi-coding-agent" for types, and TypeScript's type
 * imports are erased before anything is resolved (esbuild drops an import used only as a type).
 * A bare import that survives is refused with one sentence naming it. Pure over the `build` it is
 * given: esbuild-wasm's in the worker, Node's (or Bun's) for `ownExtensionModule` elsewhere.
 */

/** The file OMP loads: the factory is its default export. */
export const OWN_ENTRY = 'my-extension.ts';
/** What "Download my version" names the module. */
export const OWN_DOWNLOAD_FILE = 'my-extension.js';
/** OMP's package, whose types an extension imports. */
export const OMP_PACKAGE = '@oh-my-pi/pi-coding-agent';

export type OwnFiles = Readonly<Record<string, string>>;
export type OwnCompileOutcome = { readonly ok: true; readonly code: string } | { readonly ok: false; readonly problems: CompileProblem[] };

const FILE = 'own-file';

/** A file name the workspace accepts: `name.ts`, or in folders (`lib/notes.ts`), no `..`. */
export const OWN_PATH = /^(?:[A-Za-z0-9_-]+\/)*[A-Za-z0-9_.-]+\.ts$/;

/** Why a set of files cannot be an extension before esbuild sees it; null when it can. */
export function filesProblem(files: OwnFiles): CompileProblem | null {
  if (!Object.hasOwn(files, OWN_ENTRY)) return { file: null, line: 0, column: 0, text: `There is no ${OWN_ENTRY}: it is the file OMP loads, whose default export is the extension's factory.` };
  const bad = Object.keys(files).find((path) => !OWN_PATH.test(path) || path.split('/').includes('..'));
  return bad === undefined ? null : { file: null, line: 0, column: 0, text: `"${bad}" is not a file name the page can bundle: use letters, digits, "-", "_" and "/", ending in .ts.` };
}

/** The sentence for a bare import the page cannot provide. */
export function refusedImport(specifier: string): string {
  if (specifier === OMP_PACKAGE || specifier.startsWith('@oh-my-pi/')) {
    return `"${specifier}" can be imported for its types only (import type …): OMP gives an extension its API as \`pi\`, so nothing of the package is bundled.`;
  }
  return `"${specifier}" cannot be imported here: the page provides no npm packages to your extension, only its own files (relative imports) and OMP's types; for schemas use pi.zod or pi.typebox.`;
}

/** Bundles `files` into one ES module whose default export is the factory; `download` adds the banner and licence comments. */
export async function compileOwn(esbuild: Pick<Esbuild, 'build'>, files: OwnFiles, { download = false } = {}): Promise<OwnCompileOutcome> {
  const problem = filesProblem(files);
  if (problem) return { ok: false, problems: [problem] };
  const text = (path: string): string | undefined => (Object.hasOwn(files, path) ? files[path] : undefined);
  try {
    const result: BuildResult = await esbuild.build(optionsFor(files, download));
    const [file] = result.outputFiles ?? [];
    if (!file) return { ok: false, problems: [{ file: null, line: 0, column: 0, text: 'esbuild produced no output.' }] };
    return { ok: true, code: file.text };
  } catch (error) {
    const messages = (error as Partial<BuildFailure>).errors;
    if (!Array.isArray(messages) || messages.length === 0) throw error;
    return { ok: false, problems: messages.map((message) => problemOf(message, text, FILE)) };
  }
}

function optionsFor(files: OwnFiles, download: boolean): BuildOptions & { write: false } {
  return {
    entryPoints: [OWN_ENTRY],
    ...LEARNER_BUILD,
    ...(download
      ? { legalComments: 'inline', banner: { js: '// My OMP extension, built in the Seed Desk Playground. Install: copy into ~/.omp/agent/extensions/' } }
      : { legalComments: 'none' }),
    plugins: [ownFiles(files)],
  };
}

function ownFiles(files: OwnFiles): Plugin {
  return {
    name: 'own-extension-files',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point') return { path: args.path.replace(/^\.\//, ''), namespace: FILE };
        if (args.path.startsWith('.')) {
          const target = resolveRelative(files, args.importer, args.path);
          if (target) return { path: target, namespace: FILE };
          return { errors: [{ text: `"${args.path}" names none of your files (${Object.keys(files).join(', ')}): add the file first, or correct the path.` }] };
        }
        return { errors: [{ text: refusedImport(args.path) }] };
      });
      build.onLoad({ filter: /.*/, namespace: FILE }, (args) => ({ contents: files[args.path] ?? '', loader: 'ts' }));
    },
  };
}

/**
 * The module "Download my version" gives for the learner's own extension: one ES module, default
 * export the factory, nothing else needed, as the real OMP loads it from its extensions folder.
 * `esbuild`: esbuild-wasm in the worker; absent, the `esbuild` package (Node or Bun: host-test).
 * Throws a sentence (the problems joined) when the files do not compile.
 */
export async function ownExtensionModule(files: OwnFiles, esbuild?: Pick<Esbuild, 'build'>): Promise<string> {
  const specifier = 'esbuild';
  const builder = esbuild ?? ((await import(/* @vite-ignore */ specifier)) as Pick<Esbuild, 'build'>);
  const outcome = await compileOwn(builder, files, { download: true });
  if (!outcome.ok) throw new Error(outcome.problems.map((problem) => (problem.file ? `${problem.file}:${problem.line}:${problem.column}: ${problem.text}` : problem.text)).join('\n'));
  return outcome.code;
}
