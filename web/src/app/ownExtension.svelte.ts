import type { CompileProblem } from '../protocol/messages';
import type { Connection } from './connection.svelte';
import { count, downloadModule } from './downloadModule';
import type { Desk } from './desk.svelte';
import type { FactLog } from './facts.svelte';

/** The file OMP loads (web/src/worker/edit/ownCompile.ts `OWN_ENTRY`: the page does not import the worker's module). */
export const OWN_ENTRY = 'my-extension.ts';
const FILE_NAME = /^(?:[A-Za-z0-9_-]+\/)*[A-Za-z0-9_.-]+\.ts$/;

/**
 * "Your own extension" (issue 37): the learner's files, what they began from, and the requests
 * that run them in the worker (alone, on a session of their own), go back to Seed Desk, or
 * download them. The worker keeps what ran (IndexedDB `meta`, so it survives a reload); the
 * starting texts are fetched with the workspace (`ownStarts.ts`), never on the first screen.
 * The editor reads it as it reads the Seed Desk edits: `drafts`, `generation`, `problems`, `setDraft`.
 */
export class OwnExtension {
  /** Whether the Code tab shows the workspace (from "Your own extension" until a lesson is chosen). */
  open = $state(false);
  /** The learner's files: path → text; `my-extension.ts` is the one OMP loads. */
  drafts = $state.raw<Readonly<Record<string, string>>>({});
  /** What the files began from: `template` or an OMP example's id. */
  start = $state('template');
  /** Bumped when the files are replaced from outside the editor (a start chosen, the stored files loaded). */
  generation = $state(0);
  problems = $state.raw<readonly CompileProblem[]>([]);
  message = $state.raw<string | null>(null);
  busy = $state.raw<'run' | 'leave' | 'download' | null>(null);
  private loaded: Promise<void> | null = null;

  constructor(
    private readonly connection: Connection,
    private readonly desk: Desk,
    /** "Run my version" is a fact for the lesson that works here (issue 37's lesson). */
    private readonly facts: FactLog,
    /** After going back: an edited Seed Desk that was running runs again (as after a reload). */
    private readonly restoreEdited: () => Promise<void>,
  ) {}

  /** Whether the worker runs the own extension now. */
  get running(): boolean {
    return this.desk.view?.own === true;
  }

  get paths(): string[] {
    return [OWN_ENTRY, ...Object.keys(this.drafts).filter((path) => path !== OWN_ENTRY).sort()];
  }

  /** "Your own extension": the workspace opens on the stored files, or on the template the first time. */
  enter(): Promise<void> {
    this.open = true;
    this.loaded ??= this.connection.call({ type: 'storedOwn' }).then(
      async (stored) => {
        if (stored) {
          this.drafts = stored.files;
          this.start = stored.start;
          this.generation++;
        } else await this.begin('template');
        if (!this.running) this.message = 'Not running yet: "Run my version" runs it alone, on a session of its own; Seed Desk and its session stay as they are.';
      },
      (error: unknown) => {
        this.loaded = null;
        this.message = `Your stored extension could not be read: ${error instanceof Error ? error.message : String(error)}`;
      },
    );
    return this.loaded;
  }

  /** The files replaced by a starting point (one file, `my-extension.ts`). */
  async begin(id: string): Promise<void> {
    const { startText } = await import('./ownStarts');
    const text = startText(id);
    if (text === null) return;
    this.drafts = { [OWN_ENTRY]: text };
    this.start = id;
    this.problems = [];
    this.generation++;
    this.message = `Your files start over from ${id === 'template' ? 'the template' : `OMP's example "${id}"`}: press "Run my version" to run it.`;
  }

  /** The editor's text for one file. */
  setDraft(path: string, text: string): void {
    if (this.drafts[path] === text) return;
    this.drafts = { ...this.drafts, [path]: text };
  }

  /** The entry file's text replaced from outside the editor (a lesson's prepared edit): the editor shows it. */
  useEntryText(text: string): void {
    this.drafts = { ...this.drafts, [OWN_ENTRY]: text };
    this.generation++;
  }

  /** A new, empty file to import from `my-extension.ts`; a refusal says why in `message`. Returns whether it was added. */
  addFile(name: string): boolean {
    const path = name.trim();
    if (!FILE_NAME.test(path) || path.split('/').includes('..')) {
      this.message = `"${path}" is not a file name the page can bundle: use letters, digits, "-", "_" and "/", ending in .ts (for example notes.ts).`;
      return false;
    }
    if (Object.hasOwn(this.drafts, path)) {
      this.message = `There is already a file ${path}.`;
      return false;
    }
    this.drafts = { ...this.drafts, [path]: `// ${path}: import it from ${OWN_ENTRY} as "./${path.replace(/\.ts$/, '')}".\nexport {};\n` };
    this.message = `Added ${path}.`;
    return true;
  }

  /** "Run my version": compiled in the worker and run alone on the own session; on an error nothing changes. */
  async run(): Promise<void> {
    this.busy = 'run';
    this.message = 'Compiling your extension…';
    try {
      const result = await this.connection.call({ type: 'runOwn', files: { ...this.drafts }, start: this.start });
      if (result.kind === 'rejected') {
        this.problems = result.problems;
        this.message = `Not run: ${count(result.problems.length, 'problem')}. ${this.running ? 'Your extension that was running keeps running.' : 'Nothing changed: Seed Desk still runs on its session.'}`;
        return;
      }
      this.problems = [];
      this.connection.restarted = null;
      this.facts.note({ kind: 'own-ran' }, 'own');
      this.message = `Your extension runs now, alone, on its own session${result.compileMs === null ? '' : ` (compiled in the worker in ${result.compileMs} ms)`}. Type its commands in the Command box as /name args.`;
    } catch (error) {
      this.message = `Not run: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      this.busy = null;
    }
  }

  /** After a reload: the own extension again, on its session (the page asks once the first view is out). */
  async restore(): Promise<void> {
    this.open = true;
    void this.enter();
    const result = await this.connection.call({ type: 'restoreOwn' });
    if (result.kind === 'rejected') {
      this.problems = result.problems;
      this.message = 'Your extension could not run again after the reload; Seed Desk runs. Your files are still here.';
    }
  }

  /** A lesson was chosen: Seed Desk and its session again (only when the own extension runs or waits). */
  async leave(): Promise<void> {
    this.open = false;
    if (!this.running && this.desk.view?.ownWaiting !== true) return;
    this.busy = 'leave';
    try {
      await this.connection.call({ type: 'leaveOwn' });
      this.message = 'Seed Desk runs again on its session. Your extension and its session are kept: "Your own extension" runs them again.';
      if (this.desk.view?.editedWaiting) await this.restoreEdited();
    } catch (error) {
      this.message = `Still your extension: ${error instanceof Error ? error.message : String(error)}`;
      this.open = true;
    } finally {
      this.busy = null;
    }
  }

  /** "Download my version": one ES module, default export the factory; null when it does not compile. */
  download(): Promise<{ fileName: string; code: string } | null> {
    return downloadModule(this, () => this.connection.call({ type: 'downloadOwn', files: { ...this.drafts } }), 'copy it into ~/.omp/agent/extensions/ and start omp');
  }
}
