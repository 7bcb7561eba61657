import type { LineOutcome } from '../protocol/messages';
import { loadDialogActors } from './loadDialogActors';
import type { Connection } from './connection.svelte';
import type { Desk } from './desk.svelte';
import type { ConfirmationActor, ConfirmationSnapshot } from './dialogActors';
import type { FactLog } from './facts.svelte';

/** The race's "another action": a seed the race is not about, so the race leaves basil and bean alone. */
export const MEANWHILE_ITEM = 'marigold-french';
export const STEP_BACK_PAST_INVALID = 'The leaf moved back past the invalid entry.';

export interface OutputLine {
  readonly seq: number;
  readonly kind: 'input' | 'answer' | 'said' | 'usage' | 'refused' | 'failed' | 'committed' | 'cancelled' | 'info' | 'error';
  readonly text: string;
  /** Said by the learner's edited extension (issue 23): the page marks the line. */
  readonly edited?: boolean;
}

/** Outcomes whose text is the extension's (or the host's report of its error), not the host's own words. */
const FROM_EXTENSION: ReadonlySet<LineOutcome['kind']> = new Set(['answer', 'usage', 'refused', 'confirm', 'cancelled', 'committed', 'notice', 'error']);

/** How an outcome is printed in the Command output. */
function lineKind(outcome: LineOutcome): OutputLine['kind'] {
  switch (outcome.kind) {
    case 'confirm':
    case 'notice':
      return 'info';
    default:
      return outcome.kind;
  }
}

/**
 * The command line and its transcript ("Command output"), and the confirmation dialog's machine.
 * Every line is one `line` request to the worker's host, which runs it as OMP would (a message, or
 * an extension's command); when the extension asks `ctx.ui.confirm`, the answer is a dialog, and
 * Confirm or Cancel is one `answerDialog` request.
 *
 * The machine (and XState) is not in the first screen: its code loads when the first line runs,
 * and its actor starts the first time the extension opens a dialog. Until then `dialog` is
 * undefined, which the views read as the machine's initial state, idle.
 */
export class CommandLine {
  output = $state.raw<OutputLine[]>([]);
  dialog = $state.raw<ConfirmationSnapshot>();
  private seq = 0;
  /** Seed desk entries when the open dialog was requested, then when it was answered. */
  private dialogBefore = 0;
  private actor: ConfirmationActor | undefined;

  constructor(
    private readonly connection: Connection,
    private readonly desk: Desk,
    private readonly facts: FactLog,
  ) {}

  /** The confirmation machine's actor: there once the extension has opened its first dialog (Confirm and Cancel come after that). */
  get confirmation(): ConfirmationActor {
    if (!this.actor) throw new Error('No confirmation dialog has opened yet.');
    return this.actor;
  }

  /** Starts the confirmation actor the first time a dialog opens. */
  private async startConfirmation(): Promise<ConfirmationActor> {
    if (this.actor) return this.actor;
    const { startConfirmation } = await loadDialogActors();
    this.actor ??= startConfirmation(
      (input) => this.connection.call({ type: 'answerDialog', dialogId: input.dialogId, confirmed: input.confirmed }),
      (snapshot, previous) => {
        this.dialog = snapshot;
        if (previous.value !== snapshot.value) this.reportDialog(snapshot);
      },
    );
    return this.actor;
  }

  /** Runs what the learner typed. */
  async runLine(line: string): Promise<void> {
    const text = line.trim();
    if (text.length === 0) return;
    if (this.dialogIsBusy()) {
      this.print('input', text);
      this.print('usage', 'A confirmation is already open: confirm or cancel it first.');
      return;
    }
    this.dialogBefore = this.desk.seedDeskEntryCount;
    return this.answerLine(text, line, this.dialogBefore);
  }

  /**
   * A line that is answered at once. Its echo waits for the answer or for the next frame, whichever
   * comes first: usually the answer, and then both appear in one update instead of the page drawing
   * the echo while the answer is already on its way (drawing would hold the answer up).
   */
  private async answerLine(text: string, line: string, before: number): Promise<void> {
    let echoed = false;
    const echo = () => {
      if (echoed) return;
      echoed = true;
      this.print('input', text);
    };
    const frame = requestAnimationFrame(echo);
    // A line may open a dialog: its machine's code loads while the worker answers (once).
    if (!this.actor) loadDialogActors().catch(() => undefined);
    let result: LineOutcome;
    try {
      // The line as typed: the host hands a command the raw rest after the first space.
      result = await this.connection.call({ type: 'line', text: line });
    } finally {
      cancelAnimationFrame(frame);
      echo();
    }
    if (result.kind === 'confirm') {
      if (result.text) this.print('info', result.text, this.saidByEdited(result));
      // The revision as the page saw it when the extension asked, not once the machine has loaded.
      const revision = this.desk.view?.revision ?? null;
      let confirmation: ConfirmationActor;
      try {
        confirmation = await this.startConfirmation();
      } catch (error) {
        this.print('error', `The confirmation dialog could not load: ${error instanceof Error ? error.message : String(error)}`);
        return;
      }
      confirmation.send({ type: 'OPENED', outcome: result, revision });
      return;
    }
    this.print(lineKind(result), result.text, this.saidByEdited(result));
    if (result.kind === 'answer') this.facts.note({ kind: 'answer', text: result.text, query: result.query });
    if (result.kind === 'said') this.facts.note({ kind: 'said', text });
    if (result.kind === 'refused') this.facts.note({ kind: 'refused', code: result.code, via: 'line', change: result.change, deskEntries: this.countsSince(before) });
  }

  /** Confirm in the open dialog (nothing before the first dialog: there is none to answer). */
  confirm(): void {
    this.dialogBefore = this.desk.seedDeskEntryCount;
    this.actor?.send({ type: 'CONFIRM' });
  }

  cancel(): void {
    this.dialogBefore = this.desk.seedDeskEntryCount;
    this.actor?.send({ type: 'CANCEL' });
  }

  dialogIsBusy(): boolean {
    const state = this.dialog?.value;
    return state === 'open' || state === 'committing' || state === 'cancelling';
  }

  /** A line straight to the host, bypassing the dialog: demos that expect a refusal before any dialog. */
  probeLine(text: string, headless = false): Promise<LineOutcome> {
    return this.connection.call({ type: 'line', text, headless });
  }

  /** Answers a dialog that `probeLine` opened (the page's own dialog never showed it). */
  answerProbe(dialogId: string, confirmed: boolean): Promise<LineOutcome> {
    return this.connection.call({ type: 'answerDialog', dialogId, confirmed });
  }

  /** Another client's already-confirmed `/seeds reserve`, run while the learner's dialog waits. */
  async meanwhileReserve(id: string, packets: number): Promise<void> {
    const result = await this.connection.call({ type: 'meanwhileReserve', id, packets });
    this.facts.note({ kind: 'meanwhile', what: 'reserve' });
    if (result.kind === 'committed') this.facts.note({ kind: 'committed', change: result.change, via: 'meanwhile' });
    this.print(lineKind(result), `Meanwhile, another action: ${result.text}`, this.saidByEdited(result));
  }

  /** The Refusals panel's demo entry: an invalid snapshot appended on purpose. */
  async corruptDemo(): Promise<void> {
    const result = await this.connection.call({ type: 'corruptDemo' });
    this.print(lineKind(result), result.text);
  }

  /** The leaf to its parent: a session-tree move while a dialog waits (`meanwhile`), or a plain navigation. */
  async stepBack(why = 'Meanwhile, the session tree moved the leaf to the previous entry.', as: 'meanwhile' | 'navigated' = 'meanwhile'): Promise<void> {
    await this.connection.call({ type: 'stepBack' });
    if (as === 'meanwhile') this.facts.note({ kind: 'meanwhile', what: 'step-back' });
    else this.facts.note({ kind: 'navigated', entryId: this.desk.view?.leafId ?? null });
    this.print('info', why);
  }

  print(kind: OutputLine['kind'], text: string, edited = false): void {
    this.output = [...this.output.slice(-199), edited ? { seq: ++this.seq, kind, text, edited } : { seq: ++this.seq, kind, text }];
  }

  /** Whether the learner's edited extension said this outcome's text (the view that came with it says which one runs). */
  private saidByEdited(outcome: LineOutcome): boolean {
    return this.desk.view?.extension === 'edited' && FROM_EXTENSION.has(outcome.kind);
  }

  private countsSince(before: number): { before: number; after: number } {
    return { before, after: this.desk.seedDeskEntryCount };
  }

  private reportDialog(snapshot: ConfirmationSnapshot): void {
    const { result, change, title } = snapshot.context;
    // The dialog's answer is the extension's text (a failure is the host's or the worker's).
    const edited = this.desk.view?.extension === 'edited';
    switch (snapshot.value) {
      case 'open':
        this.facts.note({ kind: 'dialog-opened', title });
        break;
      case 'committed':
        this.facts.note({ kind: 'committed', change, via: 'dialog' });
        this.print('committed', result, edited);
        break;
      case 'refused':
        if (snapshot.context.code) {
          this.facts.note({ kind: 'refused', code: snapshot.context.code, via: 'dialog', change, deskEntries: this.countsSince(this.dialogBefore) });
        }
        this.print('refused', result, edited);
        break;
      case 'cancelled':
        if (change) this.facts.note({ kind: 'cancelled', change });
        this.print('cancelled', result, edited);
        break;
      case 'answered':
      case 'failed':
        if (snapshot.value === 'failed') this.facts.note({ kind: 'storage-failed', text: result });
        this.print(snapshot.value === 'failed' ? 'failed' : 'answer', result, edited && snapshot.value !== 'failed');
        break;
    }
  }
}
