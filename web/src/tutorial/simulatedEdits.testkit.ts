import { vi } from 'vitest';
import type { PlaygroundHost } from '../worker/playgroundHost';
import type { LessonAction } from '../../../lessons/format/lessonSchema';

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

type EditAction = Extract<LessonAction, { do: 'apply-edit' | 'run-edited' | 'shipped-extension' }>;

export class SimulatedEdits {
  private drafts: Record<string, string> = {};

  async perform(host: PlaygroundHost, action: EditAction): Promise<void> {
    switch (action.do) {
      case 'apply-edit': {
        const graph = await import('virtual:extension-graph');
        const shipped = graph.files[action.file];
        if (shipped === undefined) throw new Error(`${action.file} is not one of the extension's files`);
        const current = this.drafts[action.file] ?? shipped;
        if (current.split(action.find).length !== 2) throw new Error(`${action.file} does not hold this text exactly once: ${action.find}`);
        this.drafts[action.file] = current.replace(action.find, action.replace);
        if (this.drafts[action.file] === shipped) delete this.drafts[action.file];
        return;
      }
      case 'run-edited': {
        const run = await host.runEdited({ ...this.drafts }, () => undefined);
        if (run.kind !== 'running') throw new Error(`your version did not run: ${JSON.stringify(run)}`);
        return;
      }
      case 'shipped-extension':
        if (host.view().extension === 'edited') await host.useShipped();
        return;
    }
  }
}
