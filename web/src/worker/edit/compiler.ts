/// <reference path="./extensionGraph.d.ts" />
import { build, context, initialize } from 'esbuild-wasm/esm/browser.js';
import wasmURL from 'esbuild-wasm/esbuild.wasm?url';
import * as graph from 'virtual:extension-graph';
import { makeCompiler, type CompileOutcome } from './compileCore';
import { compileOwn, type OwnCompileOutcome } from './ownCompile';

/**
 * The compiler, loaded by the worker on the first "Run my version" (a dynamic import: nothing of it
 * is in the worker's first download): esbuild-wasm, the same esbuild version `build:extension`
 * runs in Node, on this thread (`worker: false`: the worker is already off the page's thread).
 * The .wasm is a Vite asset, fetched and compiled once per worker.
 */
let ready: Promise<void> | null = null;
const compileGraph = makeCompiler({ build, context }, graph);

export function loadCompiler(): Promise<void> {
  ready ??= initialize({ wasmURL, worker: false });
  return ready;
}

/** `download`: one self-contained module with zod bundled in; otherwise a module that takes npm names from the worker. */
export async function compile(edits: Readonly<Record<string, string>>, download = false): Promise<CompileOutcome> {
  await loadCompiler();
  if (!download) return compileGraph(edits, { kind: 'run' });
  const npm = await import('virtual:extension-npm-bundle');
  return compileGraph(edits, { kind: 'download', npm });
}

/** The learner's own extension (issue 37): their files alone, bundled by the same esbuild-wasm. */
export async function compileOwnFiles(files: Readonly<Record<string, string>>, download = false): Promise<OwnCompileOutcome> {
  await loadCompiler();
  return compileOwn({ build }, files, { download });
}
