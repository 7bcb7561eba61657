// The "Break it" lesson's prepared edits, bundled as the real host would load them: for each step
// of the break-it lesson whose solution applies edits, one ES module like build:extension's, with
// those edits made to the extension's sources. test:host loads them into the real OMP and into the
// playground's worker host to show that what breaks in the page breaks in the real host too.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LESSONS } from './lessons.mjs';
import { EXTENSION_ENTRY } from './build-extension.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Step id → the edits its solution applies (`apply-edit` actions), for every step that has some. */
export function preparedEdits() {
  const edits = new Map();
  for (const lesson of LESSONS) {
    for (const step of lesson.steps) {
      const applied = step.solution.filter((action) => action.do === 'apply-edit');
      if (applied.length > 0) edits.set(step.id, applied);
    }
  }
  return edits;
}

/** One self-contained ES module of the extension with `edits` made (each `find` must occur once). */
export async function bundleVariant(edits) {
  const byFile = new Map(edits.map((edit) => [join(root, edit.file), edit]));
  const result = await build({
    absWorkingDir: root,
    entryPoints: [EXTENSION_ENTRY],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    mainFields: ['module', 'main'],
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'prepared-edits',
        setup(context) {
          context.onLoad({ filter: /\.ts$/ }, (args) => {
            const edit = byFile.get(args.path);
            if (!edit) return undefined;
            const text = readFileSync(args.path, 'utf8');
            if (text.split(edit.find).length !== 2) throw new Error(`${edit.file}: the prepared edit's text must occur exactly once: ${edit.find}`);
            return { contents: text.replace(edit.find, edit.replace), loader: 'ts' };
          });
        },
      },
    ],
  });
  const [file] = result.outputFiles;
  if (!file) throw new Error('esbuild produced no output for the variant');
  return file.text;
}
