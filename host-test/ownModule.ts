/**
 * An own extension as one ES module (Node), made by the page's own bundler for the learner's own
 * extension (web/src/worker/edit/ownCompile.ts `compileOwn`) with esbuild-wasm's Node build: the
 * file is the workspace's entry file, the factory its default export. The same module is what the
 * page's host loads (from a data: URL, as pageEditedModule.ts does) and what the real OMP imports;
 * `download` is the page's "Download my version" of it, so the real OMP loads what a learner takes home.
 */
import * as esbuild from 'esbuild-wasm';
import { compileOwn, OWN_ENTRY } from '../web/src/worker/edit/ownCompile';

export async function bundleOwn(text: string, { download = false } = {}): Promise<string> {
  const outcome = await compileOwn(esbuild, { [OWN_ENTRY]: text }, { download });
  if (!outcome.ok) throw new Error(`the page's bundler refused the extension: ${outcome.problems.map((problem) => problem.text).join('; ')}`);
  return outcome.code;
}
