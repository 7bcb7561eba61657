import { assign, setup } from 'xstate';
import { CONFIRMATION_INITIAL, confirmationStates, SETTLES_IN, type ConfirmationContext, type ConfirmationEvent, type Settled } from './confirmationStates';

export type { ConfirmationContext, ConfirmationEvent, ConfirmationStateName } from './confirmationStates';

/**
 * The extension's `ctx.ui.confirm` as the page lives it (see `confirmationStates.ts`, where its
 * states are, as plain data the first screen reads without XState): the guards and actions its
 * transitions name. It invokes nothing: the command line answers and reports back with events.
 */
const EMPTY: ConfirmationContext = { requestId: null, title: '', message: '', revision: null, said: '', change: null, result: '', code: null };

/** A guard: the run ended in a way `SETTLES_IN` places in `state`. */
const endsIn =
  (state: (typeof SETTLES_IN)[keyof typeof SETTLES_IN]) =>
  (_: unknown, { outcome }: Settled): boolean =>
    SETTLES_IN[outcome.kind] === state;

export const confirmationMachine = setup({
  types: {
    context: {} as ConfirmationContext,
    events: {} as ConfirmationEvent,
  },
  guards: {
    // Each guard is a question about how the run ended, as the diagram shows it.
    askedAgain: (_, { outcome }: Settled) => outcome.kind === 'asked' && outcome.request.kind === 'confirm',
    wasCommitted: endsIn('committed'),
    wasRefused: endsIn('refused'),
    wasCancelled: endsIn('cancelled'),
    didFail: endsIn('failed'),
  },
  actions: {
    openDialog: assign((_, { outcome }: Settled) =>
      outcome.kind === 'asked' && outcome.request.kind === 'confirm'
        ? { ...EMPTY, requestId: outcome.request.id, title: outcome.request.title, message: outcome.request.message, said: outcome.text, revision: outcome.revision }
        : {},
    ),
    rememberEnd: assign((_, { outcome }: Settled) => ({
      requestId: null,
      result: outcome.text,
      code: outcome.kind === 'refused' ? outcome.code : null,
      change: outcome.kind === 'refused' || outcome.kind === 'cancelled' || outcome.kind === 'committed' ? outcome.change : null,
    })),
    rememberError: assign((_, { error }: { error: string }) => ({ requestId: null, result: `Failed: ${error}`, code: null })),
  },
}).createMachine({
  id: 'confirmation',
  initial: CONFIRMATION_INITIAL,
  context: EMPTY,
  states: confirmationStates,
});
