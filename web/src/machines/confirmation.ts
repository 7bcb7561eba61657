import { assign, fromPromise, setup } from 'xstate';
import type { DeskChange, LineOutcome } from '../protocol/messages';

/**
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

type Answered = { outcome: LineOutcome; revision?: string | null };

/** The one parameter every guard and action after the answer takes: how the extension's run ended. */
const answered = ({ event }: { event: { output: LineOutcome } }): Answered => ({ outcome: event.output });

const EMPTY: ConfirmationContext = { dialogId: null, title: '', message: '', revision: null, said: '', change: null, result: '', code: null };

export const confirmationMachine = setup({
  types: {
    context: {} as ConfirmationContext,
    events: {} as ConfirmationEvent,
  },
  actors: {
    // Supplied by the page (and by tests) through `.provide()`.
    answer: fromPromise<LineOutcome, { dialogId: string; confirmed: boolean }>(async () => {
      throw new Error('answer is not provided');
    }),
  },
  guards: {
    // Each guard is a question about how the run ended, as the diagram shows it.
    askedAgain: (_, { outcome }: Answered) => outcome.kind === 'confirm',
    wasCommitted: (_, { outcome }: Answered) => outcome.kind === 'committed',
    wasRefused: (_, { outcome }: Answered) => outcome.kind === 'refused',
    wasCancelled: (_, { outcome }: Answered) => outcome.kind === 'cancelled',
    didFail: (_, { outcome }: Answered) => outcome.kind === 'failed' || outcome.kind === 'error',
  },
  actions: {
    openDialog: assign(({ context }, { outcome, revision }: Answered) =>
      outcome.kind === 'confirm'
        ? { ...EMPTY, dialogId: outcome.dialogId, title: outcome.title, message: outcome.message, said: outcome.text, revision: revision === undefined ? context.revision : revision }
        : {},
    ),
    rememberEnd: assign((_, { outcome }: Answered) => ({
      dialogId: null,
      result: outcome.text,
      code: outcome.kind === 'refused' ? outcome.code : null,
      change: outcome.kind === 'refused' || outcome.kind === 'cancelled' || outcome.kind === 'committed' ? outcome.change : null,
    })),
    rememberError: assign((_, { error }: { error: unknown }) => ({ dialogId: null, result: `Failed: ${error instanceof Error ? error.message : String(error)}`, code: null })),
  },
}).createMachine({
  id: 'confirmation',
  initial: 'idle',
  context: EMPTY,
  states: {
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
  },
});

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

export type ConfirmationStateName = 'idle' | 'open' | 'committing' | 'cancelling' | 'committed' | 'refused' | 'cancelled' | 'answered' | 'failed';
