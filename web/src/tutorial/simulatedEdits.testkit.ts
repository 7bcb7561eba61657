import { vi } from 'vitest';
import type { PlaygroundHost } from '../worker/playgroundHost';
import { draftsWithEdit, type LessonEdit } from './lessonActions';

/**
 * "Break it"'s actions for the simulated page: the editor's drafts, "Run my version" and "Back to
 * the shipped extension", through the worker host's own edit path. The compiler is esbuild-wasm in
 * Node (the worker's is the same package in the browser), and the compiled module is imported from
 * a data: URL (Node cannot import blob: URLs), as web/src/worker/edit/editing.test.ts does.
 */
vi.mock('../worker/edit/compiler', async () => {
  const graph = await import('virtual:extension-graph');
  const { makeCompiler } = await import('../worker/edit/compileCore');
  const compile = makeCompiler(await import('esbuild-wasm'), graph);
  return { loadCompiler: () => Promise.resolve(), compile: (edits: Record<string, string>) => compile(edits, { kind: 'run' }) };
});

vi.mock('../worker/edit/editedModule', async (importOriginal) => {
  const real = await importOriginal<typeof import('../worker/edit/editedModule')>();
  const importData = (code: string) => import(/* @vite-ignore */ `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
  return { ...real, loadFactory: (code: string) => real.loadFactory(code, importData) };
});

/** The editor's drafts, "Run my version" and "Back to the shipped extension", as the simulated page's driver does them. */
export class SimulatedEdits {
  private drafts: Record<string, string> = {};

  async apply(edit: LessonEdit): Promise<void> {
    const graph = await import('virtual:extension-graph');
    this.drafts = draftsWithEdit(this.drafts, graph.files[edit.file], edit);
  }

  async run(host: PlaygroundHost): Promise<void> {
    const run = await host.runEdited({ ...this.drafts }, () => undefined);
    if (run.kind !== 'running') throw new Error(`your version did not run: ${JSON.stringify(run)}`);
  }

  async shipped(host: PlaygroundHost): Promise<void> {
    if (host.view().extension === 'edited') await host.useShipped();
  }
}
