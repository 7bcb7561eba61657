/// <reference path="../web/src/worker/edit/extensionGraph.d.ts" />
/**
 * The worker's compiler (web/src/worker/edit/compiler.ts) on esbuild-wasm's Node build: the same
 * package and the same compile core over the same import graph; only the browser's wasm loading
 * differs. Put in its place by pageHooks.mjs, for the playground side of test:host.
 */
import * as esbuild from 'esbuild-wasm';
import * as graph from 'virtual:extension-graph';
import { makeCompiler, type CompileOutcome } from '../web/src/worker/edit/compileCore';

const compileGraph = makeCompiler(esbuild, graph);

export function loadCompiler(): Promise<void> {
  return Promise.resolve();
}

export function compile(edits: Readonly<Record<string, string>>, download = false): Promise<CompileOutcome> {
  if (download) throw new Error('test:host never downloads an edited version');
  return compileGraph(edits, { kind: 'run' });
}

/** esbuild-wasm keeps a service running; stopped once the playground side is done. */
export function stopCompiler(): void {
  esbuild.stop();
}
