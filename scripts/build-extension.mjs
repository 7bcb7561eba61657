// npm run build:extension: bundle extension/seed-desk.ts (with the domain and zod) into ONE
// self-contained ES module, extension/dist/seed-desk.js, whose default export is the OMP
// extension factory. The Vite plugin `seedDeskExtension()` below serves the same bundle to the
// page (dev server) and emits it into the build, so `npm start` and `npm run build` need no
// separate step and a clean clone's download always matches its source.
import { build } from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const EXTENSION_ENTRY = fileURLToPath(new URL('../extension/seed-desk.ts', import.meta.url));
export const EXTENSION_OUTFILE = fileURLToPath(new URL('../extension/dist/seed-desk.js', import.meta.url));
/** Where the page offers the file, next to index.html. */
export const EXTENSION_ASSET = 'seed-desk.js';

/**
 * How the extension is bundled, wherever it is: one ES module on the neutral platform (Bun imports
 * it, and nothing in it touches Node or the DOM). The "Break it" variants and the editor's npm
 * bundle build with the same options.
 */
export const BUNDLE_OPTIONS = {
  absWorkingDir: root,
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  mainFields: ['module', 'main'],
  write: false,
  logLevel: 'silent',
};

/** The bundle's text. */
export async function bundleExtension() {
  const result = await build({
    ...BUNDLE_OPTIONS,
    entryPoints: [EXTENSION_ENTRY],
    legalComments: 'eof',
    banner: { js: '// Seed Desk extension for OMP (built from the Seed Desk Playground). Install: copy into ~/.omp/agent/extensions/' },
  });
  const [file] = result.outputFiles;
  if (!file) throw new Error('esbuild produced no output for the extension');
  return file.text;
}

export async function writeExtension() {
  const text = await bundleExtension();
  mkdirSync(dirname(EXTENSION_OUTFILE), { recursive: true });
  writeFileSync(EXTENSION_OUTFILE, text);
  return { file: EXTENSION_OUTFILE, bytes: Buffer.byteLength(text) };
}

/** Vite plugin: `<base>seed-desk.js` in dev (rebuilt per request, so it is never stale; `server.config.base` is `/` or `--base`), an asset next to index.html in builds. */
export function seedDeskExtension() {
  return {
    name: 'seed-desk-extension',
    configureServer(server) {
      server.middlewares.use(async (req, res, next) => {
        if (req.url?.split('?')[0] !== `${server.config.base}${EXTENSION_ASSET}`) return next();
        try {
          const text = await bundleExtension();
          res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
          res.end(text);
        } catch (error) {
          next(error);
        }
      });
    },
    async generateBundle() {
      this.emitFile({ type: 'asset', fileName: EXTENSION_ASSET, source: await bundleExtension() });
    },
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { file, bytes } = await writeExtension();
  console.log(`Wrote ${file.slice(root.length)} (${(bytes / 1024).toFixed(1)} KiB)`);
}
