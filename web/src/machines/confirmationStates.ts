import type { DeskChange, LineOutcome } from '../protocol/messages';

/**
 * The confirmation machine's states, as plain data: no XState here. The machine (`confirmation.ts`)
 * is built from this very object, and the desk's machine line lists its keys from the first
 * screen, before XState and the machine load (they load the first time the extension opens a
 * dialog), so the line cannot drift from the machine.
 *
 * The extension's `ctx.ui.confirm` as the page lives it: the extension has stopped at its
 * `await`, the dialog is open, and anything else may happen in the page meanwhile (that window is
 * what the race demo shows). Confirm or Cancel is one `answerDialog` request; the extension then
 * runs on from its `await`, and the machine settles on how that run ended.
 */
export interface ConfirmationContext {
  dialogId: string | null;
  title: string;
  message: string;
  /** The branch's revision when the extension asked (the view's, as the page saw it then). */
  revision: string | null;
  /** What the extension said when it opened the dialog (usually nothing). */
  said: string;
  /** The change the extension reported once the run ended (null until then). */
  change: DeskChange | null;
  /** The last outcome's text, for the page to show. */
  result: string;
  code: string | null;
}

export type ConfirmationEvent =
  | { type: 'OPENED'; outcome: Extract<LineOutcome, { kind: 'confirm' }>; revision: string | null }
  | { type: 'CONFIRM' }
  | { type: 'CANCEL' }
  | { type: 'DISMISS' };

export type Answered = { outcome: LineOutcome; revision?: string | null };

/** The one parameter every guard and action after the answer takes: how the extension's run ended. */
const answered = ({ event }: { event: { output: LineOutcome } }): Answered => ({ outcome: event.output });

/** Confirm and Cancel both answer the dialog; the run's end decides where the machine settles. */
function answerInvoke(confirmed: boolean) {
  return {
    src: 'answer',
    input: ({ context }: { context: ConfirmationContext }) => ({ dialogId: context.dialogId ?? '', confirmed }),
    onDone: [
      { guard: { type: 'askedAgain', params: answered }, target: 'open', actions: { type: 'openDialog', params: answered } },
      { guard: { type: 'wasCommitted', params: answered }, target: 'committed', actions: { type: 'rememberEnd', params: answered } },
      { guard: { type: 'wasRefused', params: answered }, target: 'refused', actions: { type: 'rememberEnd', params: answered } },
      { guard: { type: 'wasCancelled', params: answered }, target: 'cancelled', actions: { type: 'rememberEnd', params: answered } },
      { guard: { type: 'didFail', params: answered }, target: 'failed', actions: { type: 'rememberEnd', params: answered } },
      { target: 'answered', actions: { type: 'rememberEnd', params: answered } },
    ],
    onError: { target: 'failed', actions: { type: 'rememberError', params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) } },
  } as const;
}

/** A settled dialog accepts the next one the extension opens (or a dismissal); the outcome stays readable until then. */
function settled() {
  return {
    OPENED: { target: 'open', actions: { type: 'openDialog', params: ({ event }: { event: { outcome: LineOutcome; revision: string | null } }) => ({ outcome: event.outcome, revision: event.revision }) } },
    DISMISS: 'idle',
  } as const;
}

export const CONFIRMATION_INITIAL = 'idle';

/** The machine's top-level states, in definition order (the order the line and the chart show them). */
export const confirmationStates = {
  idle: { on: settled() },
  open: {
    on: {
      CONFIRM: 'committing',
      CANCEL: 'cancelling',
    },
  },
  committing: { invoke: answerInvoke(true) },
  cancelling: { invoke: answerInvoke(false) },
  committed: { on: settled() },
  refused: { on: settled() },
  cancelled: { on: settled() },
  answered: { on: settled() },
  failed: { on: settled() },
} as const;

export type ConfirmationStateName = keyof typeof confirmationStates;

/** The state names in definition order: what the desk's machine line lists. */
export const CONFIRMATION_STATE_NAMES = Object.keys(confirmationStates) as ConfirmationStateName[];
