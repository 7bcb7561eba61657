import { SAID_BY, type EditedVersion, type ExtensionKind, type LineOutcome, type UiAnswer, type UiRequest } from '../protocol/messages';
import { isBusy } from '../machines/confirmationStates';
import { factsOfOutcome, type OutcomeVia } from '../tutorial/outcomeFacts';
import { loadDialogActors } from './loadDialogActors';
import type { Connection } from './connection.svelte';
import type { ConfirmationActor, ConfirmationSnapshot } from './dialogActors';
import type { FactLog } from './facts.svelte';

/** The race's "another action": a seed the race is not about, so the race leaves basil and bean alone. */
export const MEANWHILE_ITEM = 'marigold-french';
export const STEP_BACK_PAST_INVALID = 'The leaf moved back past the invalid entry.';

/** How a line of the Command output reads: the learner's input, an outcome, or the page's own words. */
export type OutputKind = 'input' | 'info' | Exclude<LineOutcome['kind'], 'asked' | 'notice'>;

export interface OutputLine {
  readonly seq: number;
  readonly kind: OutputKind;
  readonly text: string;
  /** Said by the learner's edited extension (issue 23): the page marks the line. */
  readonly edited?: boolean;
  /** The mark's words (`markOf`): an edited text, or the shipped text run as the learner's version (issue 36). */
  readonly mark?: string;
}

/** The mark on what the running extension says: whose version, and whether its text is the shipped one. */
export function markOf(extension: ExtensionKind | undefined, version: EditedVersion | undefined, own = false): string | null {
  if (own) return 'your own extension';
  if (extension !== 'edited') return null;
  return version?.text === 'as-shipped' ? 'your version (the shipped text)' : 'your edited extension';
}

/** How an outcome is printed in the Command output. */
function outputKind(outcome: LineOutcome): OutputKind {
  return outcome.kind === 'asked' || outcome.kind === 'notice' ? 'info' : outcome.kind;
}

/**
 * The command line and its transcript ("Command output"), and what the extension asks of the UI.
 * Every line is one `line` request to the worker's host, which runs it as OMP would (a message, or
 * an extension's command). When the extension asks (`ctx.ui.confirm`, `select`, `input`), the
 * answer names the request; the page shows it (`pending`) and sends the learner's answer back as
 * one `answerUi` request. Both answers, the line's and the request's, end in `settle`: one path.
 *
 * A confirmation also drives the confirmation machine, which the dialog and the chart show. The
 * machine (and XState) is not in the first screen: its code loads the first time the extension
 * asks for a confirmation. Until then `dialog` is undefined, which the views read as idle.
 */
export class CommandLine {
  output = $state.raw<OutputLine[]>([]);
  dialog = $state.raw<ConfirmationSnapshot>();
  /** What the extension waits for from the learner, until the run its answer resumed has settled. */
  pending = $state.raw<UiRequest | null>(null);
  /** The learner has answered `pending`; the answer is on its way. */
  answering = $state(false);
  private seq = 0;
  private actor: ConfirmationActor | undefined;

  constructor(
    private readonly connection: Connection,
    private readonly facts: FactLog,
  ) {
    // A replaced worker holds no waiting run: what the old one asked is gone, and nothing answers it.
    connection.onRestart(() => {
      if (this.pending === null) return;
      this.pending = null;
      this.actor?.send({ type: 'FAILED', error: 'the worker was replaced while the extension waited for your answer; nothing was changed.' });
      this.print('failed', 'The question the extension asked is gone with the replaced worker: nothing was changed. Type the command again.');
    });
  }

  /** The confirmation machine's actor: there once the extension has opened its first dialog (Confirm and Cancel come after that). */
  get confirmation(): ConfirmationActor {
    if (!this.actor) throw new Error('No confirmation dialog has opened yet.');
    return this.actor;
  }

  /** Runs what the learner typed. */
  async runLine(line: string): Promise<void> {
    const text = line.trim();
    if (text.length === 0) return;
    if (this.pending !== null) {
      this.print('input', text);
      this.print('usage', 'The extension is waiting for your answer to its question: answer it first.');
      return;
    }
    let echoed = false;
    // The echo waits for the answer or for the next frame, whichever comes first: usually the
    // answer, and then both appear in one update instead of the page drawing the echo while the
    // answer is already on its way (drawing would hold the answer up).
    const echo = () => {
      if (echoed) return;
      echoed = true;
      this.print('input', text);
    };
    const frame = requestAnimationFrame(echo);
    let outcome: LineOutcome;
    try {
      // The line as typed: the host hands a command the raw rest after the first space.
      outcome = await this.connection.call({ type: 'line', text: line });
    } finally {
      cancelAnimationFrame(frame);
      echo();
    }
    await this.settle(outcome, 'line', text);
  }

  /** Confirm in the open dialog (nothing unless a confirmation is open: the machine decides). */
  confirm(): Promise<void> {
    return this.answerConfirmation(true);
  }

  cancel(): Promise<void> {
    return this.answerConfirmation(false);
  }

  /** The learner's answer to a `select`, `input` or `editor` request (`null`: cancelled). */
  answerRequest(value: string | null): Promise<void> {
    const request = this.pending;
    if (!request || request.kind === 'confirm') return Promise.resolve();
    return this.answer(request.kind === 'select' ? { kind: 'select', id: request.id, choice: value } : { kind: request.kind, id: request.id, text: value });
  }

  private answerConfirmation(confirmed: boolean): Promise<void> {
    const request = this.pending;
    const event = { type: confirmed ? 'CONFIRM' : 'CANCEL' } as const;
    const actor = this.actor;
    if (request?.kind !== 'confirm' || !actor?.getSnapshot().can(event)) return Promise.resolve();
    // The request is posted first: the worker's commit does not wait for the machine's step and
    // the dialog's redraw, which run meanwhile on this thread (the answer comes in a later task).
    const answered = this.answer({ kind: 'confirm', id: request.id, confirmed });
    actor.send(event);
    return answered;
  }

  /** One `answerUi` request; the run it resumes ends in `settle`, as a line does. */
  private async answer(answer: UiAnswer): Promise<void> {
    if (this.answering) return;
    this.answering = true;
    let outcome: LineOutcome;
    try {
      outcome = await this.connection.call({ type: 'answerUi', answer });
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      this.actor?.send({ type: 'FAILED', error: text });
      this.print('failed', `Failed: ${text}`);
      return;
    } finally {
      this.answering = false;
      this.pending = null;
    }
    if (answer.kind === 'confirm') this.actor?.send({ type: 'SETTLED', outcome });
    await this.settle(outcome, 'answer', '');
  }

  /**
   * A session change's outcome when an extension's before-event took part (sessions.svelte.ts):
   * printed, and its dialog shown, as a line's; the answer then finishes the change.
   */
  showOutcome(outcome: LineOutcome): Promise<void> {
    return this.settle(outcome, 'answer', '');
  }

  /** What every answer comes to on the page: printed, noted for the goals, and a request shown when the extension asked. */
  private async settle(outcome: LineOutcome, via: OutcomeVia, typed: string): Promise<void> {
    for (const fact of factsOfOutcome(outcome, via, typed)) this.facts.note(fact, outcome.own ? 'own' : outcome.by, outcome.version);
    if (outcome.kind !== 'asked') {
      this.print(outputKind(outcome), outcome.text, this.saidByEdited(outcome));
      return;
    }
    if (outcome.text) this.print('info', outcome.text, this.saidByEdited(outcome));
    const request = outcome.request;
    // Pending first: the dialogs' views start loading now, beside the machine's code.
    this.pending = request;
    if (request.kind === 'confirm') {
      let confirmation: ConfirmationActor;
      try {
        confirmation = this.actor ?? (await this.startConfirmation());
      } catch (error) {
        // Nothing can show the dialog: the run waits in the worker until the session is reopened or the page reloads (which ends it).
        this.pending = null;
        this.print('error', `The confirmation dialog could not load: ${error instanceof Error ? error.message : String(error)}`);
        return;
      }
      // Asked again after an answer: `SETTLED` has already reopened the machine.
      if (!isBusy(confirmation.getSnapshot().value)) confirmation.send({ type: 'OPENED', outcome: { ...outcome, request } });
    }
  }

  /** Starts the confirmation actor the first time the extension asks for a confirmation. */
  private async startConfirmation(): Promise<ConfirmationActor> {
    const { startConfirmation } = await loadDialogActors();
    this.actor ??= startConfirmation((snapshot) => (this.dialog = snapshot));
    return this.actor;
  }

  /** The extension waits for the learner's answer, or the answer is on its way: no other line runs meanwhile. */
  dialogIsBusy(): boolean {
    return this.pending !== null;
  }

  /** A line straight to the host, bypassing the dialog: demos that expect a refusal before any dialog. */
  probeLine(text: string, headless = false): Promise<LineOutcome> {
    return this.connection.call({ type: 'line', text, headless });
  }

  /** Answers a request that `probeLine` opened (the page's own dialog never showed it). */
  answerProbe(answer: UiAnswer): Promise<LineOutcome> {
    return this.connection.call({ type: 'answerUi', answer });
  }

  /** Another client's already-confirmed `/seeds reserve`, run while the learner's dialog waits. */
  async meanwhileReserve(id: string, packets: number): Promise<void> {
    const outcome = await this.connection.call({ type: 'meanwhileReserve', id, packets });
    this.facts.note({ kind: 'meanwhile', what: 'reserve' }, outcome.by, outcome.version);
    if (outcome.kind === 'committed') this.facts.note({ kind: 'committed', change: outcome.change, via: 'meanwhile' }, outcome.by, outcome.version);
    this.print(outputKind(outcome), `Meanwhile, another action: ${outcome.text}`, this.saidByEdited(outcome));
  }

  /** The Refusals panel's demo entry: an invalid snapshot appended on purpose. */
  async corruptDemo(): Promise<void> {
    const outcome = await this.connection.call({ type: 'corruptDemo' });
    this.print(outputKind(outcome), outcome.text);
  }

  /** The leaf to its parent: a session-tree move while a dialog waits (`meanwhile`), or a plain navigation. */
  async stepBack(why = 'Meanwhile, the session tree moved the leaf to the previous entry.', as: 'meanwhile' | 'navigated' = 'meanwhile'): Promise<void> {
    const { leafId } = await this.connection.call({ type: 'stepBack' });
    if (as === 'meanwhile') this.facts.note({ kind: 'meanwhile', what: 'step-back' });
    else this.facts.note({ kind: 'navigated', entryId: leafId });
    this.print('info', why);
  }

  print(kind: OutputKind, text: string, mark: string | null = null): void {
    this.output = [...this.output.slice(-199), mark !== null ? { seq: ++this.seq, kind, text, edited: true, mark } : { seq: ++this.seq, kind, text }];
  }

  /** The mark when the learner's version said this outcome's text (the outcome says which extension ran, and what its text is). */
  private saidByEdited(outcome: LineOutcome): string | null {
    return (outcome.by === 'edited' || outcome.own === true) && SAID_BY[outcome.kind] === 'extension' ? markOf(outcome.by, outcome.version, outcome.own) : null;
  }
}
