/// <reference path="./extensionGraph.d.ts" />
import { graphHash, npmModules } from 'virtual:extension-npm';
import type { ExtensionFactory } from '../omp/extensionRuntime';
import { NPM_GLOBAL } from './compileCore';

export { graphHash };

/**
 * Loads a compiled edited extension in the worker: its npm imports are the worker's own modules
 * (set on a global its shim reads), its code is an ES module imported from a blob: URL (the
 * worker's CSP allows `blob:` scripts; the page's does not, and the page never runs this code).
 */
export async function loadFactory(code: string, importModule: (code: string) => Promise<unknown> = importBlob): Promise<ExtensionFactory> {
  (globalThis as Record<symbol, unknown>)[Symbol.for(NPM_GLOBAL)] = npmModules;
  const module = (await importModule(code)) as { default?: unknown } | null;
  const factory = module?.default;
  if (typeof factory !== 'function') throw new Error('it has no default export that is a function (OMP loads `export default function (pi) { … }`).');
  return factory as ExtensionFactory;
}

async function importBlob(code: string): Promise<unknown> {
  const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
  try {
    return await import(/* @vite-ignore */ url);
  } finally {
    URL.revokeObjectURL(url);
  }
}
