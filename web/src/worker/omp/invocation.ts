/**
 * One run of extension code (a command handler, a tool's execute) as the worker follows it. The
 * code is async and may stop at a dialog (`ui.confirm` is an await): the request that started it
 * is answered then, and the run goes on when the page answers the dialog, in a later request.
 * `settle()` waits for whichever comes first: the run finishing or a dialog opening.
 */

export interface Notice {
  readonly level: 'info' | 'warning' | 'error';
  readonly text: string;
  /** False when the host has no UI: a headless host drops notifications; the page still shows them, marked. */
  readonly shown: boolean;
}

export interface AskedDialog {
  readonly id: string;
  readonly title: string;
  readonly message: string;
  readonly answer: (confirmed: boolean) => void;
}

export type RunResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

export class Invocation {
  readonly notices: Notice[] = [];
  dialog: AskedDialog | null = null;
  result: RunResult | null = null;
  private wake: (() => void) | null = null;

  start(run: () => Promise<unknown>): this {
    run().then(
      (value) => this.finish({ ok: true, value }),
      (error: unknown) => this.finish({ ok: false, error: error instanceof Error ? error.message : String(error) }),
    );
    return this;
  }

  /** Resolves once the run has finished or waits on a dialog. */
  settle(): Promise<void> {
    if (this.result !== null || this.dialog !== null) return Promise.resolve();
    return new Promise((resolve) => {
      this.wake = resolve;
    });
  }

  ask(dialog: AskedDialog): void {
    this.dialog = dialog;
    this.poke();
  }

  /** Answers the open dialog; the run continues from its `await`. */
  answer(confirmed: boolean): void {
    const dialog = this.dialog;
    if (!dialog) return;
    this.dialog = null;
    dialog.answer(confirmed);
  }

  /**
   * What the run said since `from` (a notice count taken before). A host without UI drops
   * notifications; the page still shows them, marked, so the learner sees what was said to no one.
   */
  said(from = 0): string {
    return this.notices
      .slice(from)
      .map((notice) => (notice.shown ? notice.text : `(not shown: a host without UI drops notifications) ${notice.text}`))
      .join('\n');
  }

  private finish(result: RunResult): void {
    this.result = result;
    this.poke();
  }

  private poke(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
