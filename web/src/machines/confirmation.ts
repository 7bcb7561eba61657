import { assign, fromPromise, setup } from 'xstate';
import type { CommitOutcomeView, DeskChange, LineOutcome } from '../protocol/messages';

/**
 * A human change as an `await`: read the view and revision, open the dialog, and on Confirm ask
 * the worker to commit with the revision read BEFORE the dialog. While `open`, anything else may
 * happen in the page; that window is what the race demo shows.
 */
export interface ConfirmationContext {
  line: string;
  change: DeskChange | null;
  /** The revision the human's decision is based on: read before the dialog opened. */
  revision: string | null;
  title: string;
  message: string;
  /** The last outcome, for the page to show. */
  result: string;
  code: string | null;
}

export type ConfirmationEvent =
  | { type: 'REQUEST'; line: string }
  | { type: 'CONFIRM' }
  | { type: 'CANCEL' }
  | { type: 'DISMISS' };

type Prepared = { outcome: LineOutcome };
type Committed = { outcome: CommitOutcomeView };

/** The one parameter every guard and action after an invoke takes: what the invoked actor answered. */
const prepared = ({ event }: { event: { output: LineOutcome } }): Prepared => ({ outcome: event.output });
const committed = ({ event }: { event: { output: CommitOutcomeView } }): Committed => ({ outcome: event.output });

export const confirmationMachine = setup({
  types: {
    context: {} as ConfirmationContext,
    events: {} as ConfirmationEvent,
  },
  actors: {
    // Supplied by the page (and by tests) through `.provide()`.
    prepare: fromPromise<LineOutcome, { line: string }>(async () => {
      throw new Error('prepare is not provided');
    }),
    commit: fromPromise<CommitOutcomeView, { change: DeskChange; expectedRevision: string }>(async () => {
      throw new Error('commit is not provided');
    }),
  },
  guards: {
    // Each guard is a question about the answer, as the diagram shows it: "(if isChangeToConfirm)".
    isChangeToConfirm: (_, { outcome }: Prepared) => outcome.kind === 'confirm',
    wasRefusedBeforeDialog: (_, { outcome }: Prepared) => outcome.kind === 'refused',
    wasCommitted: (_, { outcome }: Committed) => outcome.kind === 'committed',
    wasRefused: (_, { outcome }: Committed) => outcome.kind === 'refused',
  },
  actions: {
    rememberLine: assign((_, { line }: { line: string }) => ({ line, change: null, revision: null, result: '', code: null })),
    openDialog: assign((_, { outcome }: Prepared) =>
      outcome.kind === 'confirm' ? { change: outcome.change, revision: outcome.revision, title: outcome.title, message: outcome.message } : {},
    ),
    rememberAnswer: assign((_, { outcome }: Prepared) => ({
      result: outcome.kind === 'confirm' ? '' : outcome.text,
      code: outcome.kind === 'refused' ? outcome.code : null,
    })),
    rememberCommit: assign((_, { outcome }: Committed) => ({ result: outcome.message, code: outcome.kind === 'refused' ? outcome.code : null })),
    rememberCancel: assign(({ context }) => ({ result: `Cancelled: nothing was appended (${context.title.replace(/\?$/, '')} did not happen).`, code: null })),
    rememberError: assign((_, { error }: { error: unknown }) => ({ result: `Failed: ${error instanceof Error ? error.message : String(error)}`, code: null })),
  },
}).createMachine({
  id: 'confirmation',
  initial: 'idle',
  context: { line: '', change: null, revision: null, title: '', message: '', result: '', code: null },
  states: {
    idle: {
      on: { REQUEST: { target: 'reading', actions: { type: 'rememberLine', params: ({ event }) => ({ line: event.line }) } } },
    },
    reading: {
      invoke: {
        src: 'prepare',
        input: ({ context }) => ({ line: context.line }),
        onDone: [
          { guard: { type: 'isChangeToConfirm', params: prepared }, target: 'open', actions: { type: 'openDialog', params: prepared } },
          { guard: { type: 'wasRefusedBeforeDialog', params: prepared }, target: 'refused', actions: { type: 'rememberAnswer', params: prepared } },
          { target: 'answered', actions: { type: 'rememberAnswer', params: prepared } },
        ],
        onError: { target: 'failed', actions: { type: 'rememberError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    open: {
      on: {
        CONFIRM: 'committing',
        CANCEL: { target: 'cancelled', actions: 'rememberCancel' },
      },
    },
    committing: {
      invoke: {
        src: 'commit',
        input: ({ context }) => ({ change: context.change as DeskChange, expectedRevision: context.revision ?? '' }),
        onDone: [
          { guard: { type: 'wasCommitted', params: committed }, target: 'committed', actions: { type: 'rememberCommit', params: committed } },
          { guard: { type: 'wasRefused', params: committed }, target: 'refused', actions: { type: 'rememberCommit', params: committed } },
          { target: 'failed', actions: { type: 'rememberCommit', params: committed } },
        ],
        onError: { target: 'failed', actions: { type: 'rememberError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    committed: { on: settled() },
    refused: { on: settled() },
    cancelled: { on: settled() },
    answered: { on: settled() },
    failed: { on: settled() },
  },
});

/** A settled dialog accepts a new request (or a dismissal); the outcome stays readable until then. */
function settled() {
  return {
    REQUEST: { target: 'reading', actions: { type: 'rememberLine', params: ({ event }: { event: { line: string } }) => ({ line: event.line }) } },
    DISMISS: 'idle',
  } as const;
}

export type ConfirmationStateName = 'idle' | 'reading' | 'open' | 'committing' | 'committed' | 'refused' | 'cancelled' | 'answered' | 'failed';
