/**
 * The worker's loader of a compiled edited extension (web/src/worker/edit/editedModule.ts), its
 * module imported from a data: URL: Node cannot import the blob: URL the worker uses.
 */
import { graphHash, loadFactory as loadInWorker } from '../web/src/worker/edit/editedModule';
import type { ExtensionFactory } from '../web/src/worker/omp/extensionRuntime';

export { graphHash };

export function loadFactory(code: string): Promise<ExtensionFactory> {
  return loadInWorker(code, (text) => import(`data:text/javascript;base64,${Buffer.from(text).toString('base64')}`));
}
