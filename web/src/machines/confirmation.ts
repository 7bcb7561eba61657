import { assign, fromPromise, setup } from 'xstate';
import type { LineOutcome } from '../protocol/messages';
import { CONFIRMATION_INITIAL, confirmationStates, type Answered, type ConfirmationContext, type ConfirmationEvent } from './confirmationStates';

export type { ConfirmationContext, ConfirmationEvent, ConfirmationStateName } from './confirmationStates';

/**
 * The extension's `ctx.ui.confirm` as the page lives it (see `confirmationStates.ts`, where its
 * states are, as plain data the first screen reads without XState): the guards and actions its
 * transitions name, and the `answer` actor the page provides.
 */
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
  initial: CONFIRMATION_INITIAL,
  context: EMPTY,
  states: confirmationStates,
});
