// The "Break it" lesson's prepared edits, bundled as the real host would load them: for each step
// of the break-it lesson whose solution applies edits, one ES module like build:extension's, with
// those edits made to the extension's sources. test:host loads them into the real OMP and into the
// playground's worker host to show that what breaks in the page breaks in the real host too.
// Run through tsx (the lessons' loader reads the lesson schema's TypeScript):
//   npx tsx scripts/break-it-variants.mjs <folder>   writes <folder>/<step id>.js for each step.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LESSONS } from './lessons.mjs';
import { BUNDLE_OPTIONS, EXTENSION_ENTRY } from './build-extension.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Step id → the extension's files as that step leaves them (only those that differ from the
 * shipped ones), for every step whose solution applies edits. Edits build on one another through a
 * lesson, as they do in the page's editor (a mend step undoes its break step's edit).
 */
export function preparedEdits() {
  const variants = new Map();
  for (const lesson of LESSONS) {
    const texts = new Map();
    for (const step of lesson.steps) {
      const applied = step.solution.filter((action) => action.do === 'apply-edit');
      if (applied.length === 0) continue;
      for (const edit of applied) {
        const current = texts.get(edit.file) ?? readFileSync(join(root, edit.file), 'utf8');
        if (current.split(edit.find).length !== 2) throw new Error(`${step.id}: ${edit.file} does not hold this text exactly once: ${edit.find}`);
        texts.set(edit.file, current.replace(edit.find, edit.replace));
      }
      const changed = [...texts].filter(([file, text]) => text !== readFileSync(join(root, file), 'utf8'));
      variants.set(step.id, Object.fromEntries(changed));
    }
  }
  return variants;
}

/** One self-contained ES module of the extension with `files` (path → text) in place of the shipped ones. */
export async function bundleVariant(files) {
  const byPath = new Map(Object.entries(files).map(([file, text]) => [join(root, file), text]));
  const result = await build({
    ...BUNDLE_OPTIONS,
    entryPoints: [EXTENSION_ENTRY],
    plugins: [
      {
        name: 'prepared-edits',
        setup(context) {
          context.onLoad({ filter: /\.ts$/ }, (args) => (byPath.has(args.path) ? { contents: byPath.get(args.path), loader: 'ts' } : undefined));
        },
      },
    ],
  });
  const [file] = result.outputFiles;
  if (!file) throw new Error('esbuild produced no output for the variant');
  return file.text;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const folder = process.argv[2];
  if (!folder) throw new Error('usage: tsx scripts/break-it-variants.mjs <folder>');
  mkdirSync(folder, { recursive: true });
  for (const [step, edits] of preparedEdits()) writeFileSync(join(folder, `${step}.js`), await bundleVariant(edits));
}
