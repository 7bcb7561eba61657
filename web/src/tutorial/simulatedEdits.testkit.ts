import { vi } from 'vitest';
import type { PlaygroundHost } from '../worker/playgroundHost';
import { startText } from '../app/ownStarts';
import { OWN_ENTRY } from '../worker/edit/ownCompile';
import { draftsWithEdit, ownTextWithEdit, type LessonEdit } from './lessonActions';

/**
 * "Break it"'s actions for the simulated page: the editor's drafts, "Run my version" and "Back to
 * the shipped extension", through the worker host's own edit path. The compiler is esbuild-wasm in
 * Node (the worker's is the same package in the browser), and the compiled module is imported from
 * a data: URL (Node cannot import blob: URLs), as web/src/worker/edit/editing.test.ts does.
 */
vi.mock('../worker/edit/compiler', async () => {
  const graph = await import('virtual:extension-graph');
  const { makeCompiler } = await import('../worker/edit/compileCore');
  const esbuild = await import('esbuild-wasm');
  const compile = makeCompiler(esbuild, graph);
  const { compileOwn } = await import('../worker/edit/ownCompile');
  return {
    loadCompiler: () => Promise.resolve(),
    compile: (edits: Record<string, string>) => compile(edits, { kind: 'run' }),
    // Issue 37: the learner's own extension, compiled from its files alone.
    compileOwnFiles: (files: Record<string, string>, download = false) => compileOwn(esbuild, files, { download }),
  };
});

vi.mock('../worker/edit/editedModule', async (importOriginal) => {
  const real = await importOriginal<typeof import('../worker/edit/editedModule')>();
  const importData = (code: string) => import(/* @vite-ignore */ `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
  return { ...real, loadFactory: (code: string) => real.loadFactory(code, importData) };
});

/** The editor's drafts, "Run my version" and "Back to the shipped extension", as the simulated page's driver does them. */
export class SimulatedEdits {
  private drafts: Record<string, string> = {};
  /** As `ExtensionEdits.from`: what the drafts were changed from. */
  private from: 'last-run' | 'shipped' = 'shipped';

  async apply(edit: LessonEdit): Promise<void> {
    const graph = await import('virtual:extension-graph');
    this.drafts = draftsWithEdit(this.drafts, graph.files[edit.file], edit);
  }

  async run(host: PlaygroundHost): Promise<void> {
    const run = await host.runEdited({ ...this.drafts }, () => undefined, this.from);
    if (run.kind !== 'running') throw new Error(`your version did not run: ${JSON.stringify(run)}`);
    this.from = 'last-run';
  }

  /** "Discard my edits". */
  discard(): void {
    this.drafts = {};
    this.from = 'shipped';
  }

  /** "Reset this step" ran the step's own version: as `ExtensionEdits.resumeFrom`, the editor shows it when it held nothing of the learner's. */
  async restore(host: PlaygroundHost, files: Readonly<Record<string, string>>): Promise<void> {
    const run = await host.runEdited({ ...files }, () => undefined, 'restore');
    if (run.kind !== 'running') throw new Error(`the start's version did not run: ${JSON.stringify(run)}`);
    if (Object.keys(this.drafts).length > 0) return;
    this.drafts = { ...files };
    this.from = 'last-run';
  }

  async shipped(host: PlaygroundHost): Promise<void> {
    if (host.view().extension === 'edited') await host.useShipped();
  }
}

/** "Your own extension" (issue 37) as the simulated page's driver does it: its files, its editor's prepared edits, "Run my version". */
export class SimulatedOwn {
  private files: Record<string, string> = {};
  private start = 'template';

  begin(from: string): void {
    const text = startText(from);
    if (text === null) throw new Error(`The workspace offers no start "${from}".`);
    this.files = { [OWN_ENTRY]: text };
    this.start = from;
  }

  edit(edit: { readonly find: string; readonly replace: string }): void {
    this.files = { ...this.files, [OWN_ENTRY]: ownTextWithEdit(this.files[OWN_ENTRY] ?? '', edit) };
  }

  async run(host: PlaygroundHost): Promise<void> {
    const { runOwn } = await import('../worker/edit/ownExtension');
    const run = await runOwn(host.core, { ...this.files }, this.start, () => undefined);
    if (run.kind !== 'running') throw new Error(`your extension did not run: ${JSON.stringify(run)}`);
  }
}
