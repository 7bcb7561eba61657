import type { CompileProblem, EditedFrom, EditedVersion, ExtensionKind } from '../protocol/messages';
import type { Connection } from './connection.svelte';
import { count, downloadModule } from './downloadModule';
import type { Desk } from './desk.svelte';

/**
 * The learner's edits to the extension (issue 23): the editor's texts, and the requests that
 * compile and run them in the worker, go back to the shipped extension, or download them. The
 * worker keeps what ran (IndexedDB `meta`, so it survives a reload); the page keeps only the
 * editor's texts in memory, so an edit that was never run is gone after a reload.
 */
export class ExtensionEdits {
  /** The files that differ from the shipped ones: path → the learner's text. */
  drafts = $state.raw<Readonly<Record<string, string>>>({});
  /** Bumped when the drafts are replaced from outside the editor (stored edits loaded, edits discarded). */
  generation = $state(0);
  /** The last compile's errors (none after a good run). */
  problems = $state.raw<readonly CompileProblem[]>([]);
  /** What the last action came to, for the Code tab's status region. */
  message = $state.raw<string | null>(null);
  busy = $state.raw<'run' | 'shipped' | 'download' | null>(null);
  /**
   * What the drafts were changed from (issue 36): the version that ran last, or the shipped files
   * (nothing ran yet, or "Discard my edits" put them back). "Run my version" sends it, so the
   * worker can tell the learner's own change to a version from the shipped text run again.
   */
  from = $state.raw<Exclude<EditedFrom, 'restore'>>('shipped');
  private stored: Promise<void> | null = null;

  constructor(
    private readonly connection: Connection,
    private readonly desk: Desk,
  ) {
    connection.onRestart(() => {
      this.busy = null;
      this.message = 'Your edited extension was stopped (see the alert above): the shipped extension runs. Mend your code and run it again.';
    });
  }

  /** Which extension the worker runs, as its last view said. */
  get running(): ExtensionKind {
    return this.desk.view?.extension ?? 'shipped';
  }

  get edited(): boolean {
    return Object.keys(this.drafts).length > 0;
  }

  /** Once, when the editor opens: the edits the worker kept (the version that ran before a reload). */
  loadStored(): Promise<void> {
    this.stored ??= this.connection.call({ type: 'storedEdits' }).then(
      (stored) => {
        if (stored && !this.edited) {
          this.drafts = stored.files;
          this.from = 'last-run';
          this.generation++;
        }
      },
      () => undefined,
    );
    return this.stored;
  }

  /** The editor's text for one file; equal to the shipped text, it is no longer an edit. */
  setDraft(path: string, text: string, shipped: string): void {
    if ((this.drafts[path] ?? shipped) === text) return;
    const next = { ...this.drafts };
    if (text === shipped) delete next[path];
    else next[path] = text;
    this.drafts = next;
  }

  /** The editor's texts replaced from outside (a lesson's prepared edit): path → text, only files that differ from the shipped ones. */
  useDrafts(files: Readonly<Record<string, string>>): void {
    this.drafts = { ...files };
    this.generation++;
  }

  /** Every file back to the shipped text (the running extension stays as it is). */
  discard(): void {
    this.drafts = {};
    this.problems = [];
    this.from = 'shipped';
    this.message = 'Your edits are discarded: the editor shows the shipped files. Run as they are, they change nothing: a mend is a change you make to your version.';
    this.generation++;
  }

  /**
   * "Reset this step" ran the step's own version again: when the editor holds nothing of the
   * learner's (the shipped files, after "Discard my edits"), it shows that version, to be changed;
   * otherwise the editor keeps their text.
   */
  resumeFrom(files: Readonly<Record<string, string>>): void {
    if (this.edited) return;
    this.drafts = { ...files };
    this.from = 'last-run';
    this.generation++;
  }

  /** "Run my version": compiled in the worker; on an error nothing changes and `problems` says where. */
  async run(): Promise<void> {
    this.busy = 'run';
    this.message = 'Compiling your version…';
    try {
      const result = await this.connection.call({ type: 'runEdited', files: { ...this.drafts }, from: this.from });
      if (result.kind === 'rejected') {
        this.problems = result.problems;
        this.message = `Not run: ${count(result.problems.length, 'problem')}. The ${this.running === 'edited' ? 'edited' : 'shipped'} extension that was running keeps running.`;
        return;
      }
      this.problems = [];
      this.connection.restarted = null;
      this.from = 'last-run';
      const compiled = result.compileMs === null ? '' : ` (compiled in the worker in ${result.compileMs} ms)`;
      this.message = ranMessage(this.desk.view?.editedVersion, compiled);
    } catch (error) {
      this.message = `Not run: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      this.busy = null;
    }
  }

  /** After a reload: the version that ran before it, again (the page asks once the first view is out). */
  async restore(): Promise<void> {
    const result = await this.connection.call({ type: 'restoreEdited' });
    if (result.kind === 'rejected') {
      this.problems = result.problems;
      this.message = 'Your stored edited extension could not run again; the shipped extension runs.';
    }
  }

  async backToShipped(): Promise<void> {
    this.busy = 'shipped';
    try {
      await this.connection.call({ type: 'useShipped' });
      this.message = 'The shipped extension runs again. Your edits stay in the editor.';
    } catch (error) {
      this.message = `Still your edited extension: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      this.busy = null;
    }
  }

  /** "Download my version": one self-contained module (zod bundled in); null when it does not compile. */
  download(): Promise<{ fileName: string; code: string } | null> {
    return downloadModule(this, () => this.connection.call({ type: 'downloadEdited', files: { ...this.drafts } }), 'install it as seed-desk.js is installed');
  }
}

/** What "Run my version" came to, said as what it is: an unchanged text is not called an edit. */
export function ranMessage(version: EditedVersion | undefined, compiled: string): string {
  if (version?.text !== 'as-shipped') return `Your edited extension runs now${compiled}.`;
  return version.editedFrom === 'an-edit'
    ? `Your version runs now${compiled}: your change made its text the same as the shipped files.`
    : `Your version runs now${compiled}, but its text is the shipped files unchanged: it breaks and mends nothing.`;
}

/** `extension/command.ts:59:38`: where a problem is, as editors and compilers write it. */
export function where(problem: CompileProblem): string {
  if (problem.file === null) return '';
  return problem.line > 0 ? `${problem.file}:${problem.line}:${problem.column}` : problem.file;
}
