/**
 * An own extension's files as one ES module (Node): esbuild-wasm's Node build, as pageCompiler.ts
 * compiles for the page, bundling from the files given and nothing else (format esm, the factory
 * its default export). The same module is what the page's host loads (from a data: URL, as
 * pageEditedModule.ts does) and what the real OMP imports, as it imports the built Seed Desk.
 *
 * `download` stands in for the page's "Download my version" of an own extension (the workspace's
 * own bundler, issue 37 point 6, is not on main yet): the same bundle with a first line that says
 * what it is. When the page's function lands, the download check uses it instead.
 */
import * as esbuild from 'esbuild-wasm';

const FILE = 'own-file';

export async function bundleOwn(files: Readonly<Record<string, string>>, entry: string, { download = false } = {}): Promise<string> {
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    legalComments: download ? 'eof' : 'none',
    ...(download ? { banner: { js: `// An OMP extension written in the Seed Desk Playground (${entry}). Install: copy into ~/.omp/agent/extensions/` } } : {}),
    plugins: [
      {
        name: 'own-files',
        setup(build) {
          build.onResolve({ filter: /.*/ }, (args) => {
            if (args.kind === 'entry-point') return { path: args.path, namespace: FILE };
            const target = args.path.startsWith('./') ? args.path.slice(2) : args.path;
            for (const candidate of [target, `${target}.ts`]) if (Object.hasOwn(files, candidate)) return { path: candidate, namespace: FILE };
            // Type-only imports (OMP's own package among them) never get here: esbuild drops them.
            return { errors: [{ text: `"${args.path}" cannot be imported: the extension's own files are ${Object.keys(files).join(', ')}.` }] };
          });
          build.onLoad({ filter: /.*/, namespace: FILE }, (args) => ({ contents: files[args.path] ?? '', loader: 'ts' }));
        },
      },
    ],
  });
  const [file] = result.outputFiles ?? [];
  if (!file) throw new Error(`esbuild produced no output for ${entry}`);
  return file.text;
}

/** Imports a bundled module from a data: URL (Node cannot import the worker's blob: URLs); its default export. */
export async function importOwn(code: string): Promise<unknown> {
  const module = (await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)) as { default?: unknown };
  return module.default;
}
