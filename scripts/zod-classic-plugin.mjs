// `virtual:zod-classic` (issue 37's `pi.zod`): zod v4's classic API (`z.object(…).describe(…)`,
// what an OMP extension's tool parameters are written with) bundled by esbuild at build time into
// one ES module, handed to the worker as text (`export default "<module>"`). The worker imports
// that text from a blob: URL the first time an extension reads `pi.zod` (web/src/worker/omp/zodSupport.ts).
// As text, it shares no module with the worker's own zod/mini: a plain `import('zod')` made the
// bundler keep every zod core export the classic API needs in the worker's first chunk (+18 KiB gzip).
import { BUNDLE_OPTIONS } from './build-extension.mjs';

export const ZOD_CLASSIC_ID = 'virtual:zod-classic';
const RESOLVED = `\0${ZOD_CLASSIC_ID}`;

let made;

/** zod's classic API as one minified ES module text, with its licence comment. */
export function zodClassicSource() {
  made ??= (async () => {
    const { build } = await import('esbuild');
    const result = await build({
      ...BUNDLE_OPTIONS,
      stdin: { contents: 'export * from "zod";', resolveDir: BUNDLE_OPTIONS.absWorkingDir, loader: 'js', sourcefile: 'zod-classic.js' },
      minify: true,
      legalComments: 'eof',
    });
    const [file] = result.outputFiles;
    if (!file) throw new Error('esbuild produced no zod bundle');
    return `export default ${JSON.stringify(file.text)};`;
  })();
  return made;
}

export function zodClassicPlugin() {
  return {
    name: 'seed-desk-zod-classic',
    resolveId: (id) => (id === ZOD_CLASSIC_ID ? RESOLVED : null),
    load: (id) => (id === RESOLVED ? zodClassicSource() : null),
  };
}
