import { fromPromise, type SnapshotFrom } from 'xstate';
import { parseSeedsArgs, splitSlashCommand } from '$domain/command/parse';
import { confirmationMachine } from '../machines/confirmation';
import type { CommitOutcomeView, DeskChange, LineOutcome } from '../protocol/messages';
import type { Connection } from './connection.svelte';
import type { Desk } from './desk.svelte';
import type { FactLog } from './facts.svelte';
import { runActor } from './runActor';

/** The race's "another action": a seed the race is not about, so the race leaves basil and bean alone. */
export const MEANWHILE_ITEM = 'marigold-french';
export const STEP_BACK_PAST_INVALID = 'The leaf moved back past the invalid entry.';

export interface OutputLine {
  readonly seq: number;
  readonly kind: 'input' | 'answer' | 'said' | 'usage' | 'refused' | 'failed' | 'committed' | 'cancelled' | 'info';
  readonly text: string;
}

/** True for the `/seeds` lines that change the desk and therefore go through a confirmation. */
export function isHumanMutation(line: string): boolean {
  const slash = splitSlashCommand(line.trim());
  if (!slash || slash.name !== 'seeds') return false;
  const command = parseSeedsArgs(slash.args);
  return command.kind === 'reservation' || command.kind === 'grant';
}

/**
 * The command line and its transcript ("Command output"), and the confirmation dialog's machine:
 * a desk-changing line opens a dialog (one `line` request), Confirm commits on the revision read
 * then (one `commit` request), Cancel sends nothing.
 */
export class CommandLine {
  output = $state.raw<OutputLine[]>([]);
  dialog = $state.raw<SnapshotFrom<typeof confirmationMachine>>();
  readonly confirmation;
  private seq = 0;
  /** Seed desk entries when the open dialog was requested, then when it was answered. */
  private dialogBefore = 0;

  constructor(
    private readonly connection: Connection,
    private readonly desk: Desk,
    private readonly facts: FactLog,
  ) {
    this.confirmation = runActor(
      confirmationMachine.provide({
        actors: {
          prepare: fromPromise(({ input }) => this.connection.call({ type: 'line', text: input.line })),
          commit: fromPromise(({ input }) => this.connection.call({ type: 'commit', change: input.change, expectedRevision: input.expectedRevision })),
        },
      }),
      (snapshot, previous) => {
        this.dialog = snapshot;
        if (previous.value !== snapshot.value) this.reportDialog(snapshot);
      },
    );
  }

  /** Runs what the learner typed. */
  async runLine(line: string): Promise<void> {
    const text = line.trim();
    if (text.length === 0) return;
    const before = this.desk.seedDeskEntryCount;
    if (!isHumanMutation(text)) return this.answerLine(text, before);
    this.print('input', text);
    this.dialogBefore = before;
    if (this.dialogIsBusy()) {
      this.print('usage', 'A confirmation is already open: confirm or cancel it first.');
      return;
    }
    this.confirmation.send({ type: 'REQUEST', line: text });
  }

  /**
   * A line that is answered at once. Its echo waits for the answer or for the next frame, whichever
   * comes first: usually the answer, and then both appear in one update instead of the page drawing
   * the echo while the answer is already on its way (drawing would hold the answer up).
   */
  private async answerLine(text: string, before: number): Promise<void> {
    let echoed = false;
    const echo = () => {
      if (echoed) return;
      echoed = true;
      this.print('input', text);
    };
    const frame = requestAnimationFrame(echo);
    let result: LineOutcome;
    try {
      result = await this.connection.call({ type: 'line', text });
    } finally {
      cancelAnimationFrame(frame);
      echo();
    }
    if (result.kind === 'confirm') return; // unreachable: mutations go through the dialog
    this.print(result.kind, result.text);
    if (result.kind === 'answer') this.facts.note({ kind: 'answer', text: result.text, query: result.query });
    if (result.kind === 'said') this.facts.note({ kind: 'said', text });
    if (result.kind === 'refused') this.facts.note({ kind: 'refused', code: result.code, via: 'line', deskEntries: this.countsSince(before) });
  }

  confirm(): void {
    this.dialogBefore = this.desk.seedDeskEntryCount;
    this.confirmation.send({ type: 'CONFIRM' });
  }

  cancel(): void {
    this.confirmation.send({ type: 'CANCEL' });
  }

  dialogIsBusy(): boolean {
    const state = this.dialog?.value;
    return state === 'reading' || state === 'open' || state === 'committing';
  }

  /** A line straight to the host, bypassing the dialog: demos that expect a refusal before any dialog. */
  probeLine(text: string, headless = false): Promise<LineOutcome> {
    return this.connection.call({ type: 'line', text, headless });
  }

  /** A human commit with a chosen expected revision, as a dialog would send it after Confirm. */
  async probeCommit(change: DeskChange, expectedRevision: string, via: 'dialog' | 'compare' = 'dialog'): Promise<CommitOutcomeView> {
    const before = this.desk.seedDeskEntryCount;
    const result = await this.connection.call({ type: 'commit', change, expectedRevision });
    if (result.kind === 'refused') this.facts.note({ kind: 'refused', code: result.code, via, deskEntries: this.countsSince(before) });
    if (result.kind === 'committed') this.facts.note({ kind: 'committed', change, via: 'dialog' });
    return result;
  }

  async meanwhileReserve(id: string, packets: number): Promise<void> {
    const result = await this.connection.call({ type: 'meanwhileReserve', id, packets });
    this.facts.note({ kind: 'meanwhile', what: 'reserve' });
    if (result.kind === 'committed') this.facts.note({ kind: 'committed', change: { kind: 'reservation', action: 'reserve', id, packets }, via: 'meanwhile' });
    this.print(result.kind === 'committed' ? 'committed' : result.kind, `Meanwhile, another action: ${result.message}`);
  }

  /** The Refusals panel's demo entry: an invalid snapshot appended on purpose. */
  async corruptDemo(): Promise<void> {
    const result = await this.connection.call({ type: 'corruptDemo' });
    this.print(result.kind === 'committed' ? 'info' : result.kind, result.message);
  }

  /** The leaf to its parent: a session-tree move while a dialog waits (`meanwhile`), or a plain navigation. */
  async stepBack(why = 'Meanwhile, the session tree moved the leaf to the previous entry.', as: 'meanwhile' | 'navigated' = 'meanwhile'): Promise<void> {
    await this.connection.call({ type: 'stepBack' });
    if (as === 'meanwhile') this.facts.note({ kind: 'meanwhile', what: 'step-back' });
    else this.facts.note({ kind: 'navigated', entryId: this.desk.view?.leafId ?? null });
    this.print('info', why);
  }

  print(kind: OutputLine['kind'], text: string): void {
    this.output = [...this.output.slice(-199), { seq: ++this.seq, kind, text }];
  }

  private countsSince(before: number): { before: number; after: number } {
    return { before, after: this.desk.seedDeskEntryCount };
  }

  private reportDialog(snapshot: SnapshotFrom<typeof confirmationMachine>): void {
    const { result, change } = snapshot.context;
    switch (snapshot.value) {
      case 'open':
        if (change) this.facts.note({ kind: 'dialog-opened', change });
        break;
      case 'committed':
        this.facts.note({ kind: 'committed', change, via: 'dialog' });
        this.print('committed', result);
        break;
      case 'refused':
        if (snapshot.context.code) {
          this.facts.note({ kind: 'refused', code: snapshot.context.code, via: change ? 'dialog' : 'line', deskEntries: this.countsSince(this.dialogBefore) });
        }
        this.print('refused', result);
        break;
      case 'cancelled':
        if (change) this.facts.note({ kind: 'cancelled', change });
        this.print('cancelled', result);
        break;
      case 'answered':
      case 'failed':
        if (snapshot.value === 'failed') this.facts.note({ kind: 'storage-failed', text: result });
        this.print(snapshot.value === 'failed' ? 'failed' : 'answer', result);
        break;
    }
  }
}
