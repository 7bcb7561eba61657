import type { ConfirmAsked, DeskChange, LineOutcome, RunEndKind } from '../protocol/messages';

/**
 * The confirmation machine's states, as plain data: no XState here. The machine (`confirmation.ts`)
 * is built from this very object, and the desk's machine line lists its keys from the first
 * screen, before XState and the machine load (they load the first time the extension opens a
 * dialog), so the line cannot drift from the machine.
 *
 * The extension's `ctx.ui.confirm` as the page lives it: the extension has stopped at its
 * `await`, the dialog is open, and anything else may happen in the page meanwhile (that window is
 * what the race demo shows). Confirm or Cancel moves the machine to `committing` or `cancelling`;
 * the command line sends the answer (one `answerUi` request) and tells the machine how the run
 * ended (`SETTLED`), and the machine settles there. The machine sends nothing itself.
 */
export interface ConfirmationContext {
  requestId: string | null;
  title: string;
  message: string;
  /** The branch's revision when the extension asked (the worker's, in the outcome that opened the dialog). */
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
  | { type: 'OPENED'; outcome: ConfirmAsked }
  | { type: 'CONFIRM' }
  | { type: 'CANCEL' }
  /** How the run the answer resumed ended (it may have asked again). */
  | { type: 'SETTLED'; outcome: LineOutcome }
  /** The answer never reached the worker, or its reply could not be read. */
  | { type: 'FAILED'; error: string }
  | { type: 'DISMISS' };

/** The states a run can leave the dialog in. */
type SettledState = 'open' | 'committed' | 'refused' | 'cancelled' | 'answered' | 'failed';

/**
 * Where each way a run ends leaves the dialog: declared for every kind of run end, so a new kind
 * without a place does not compile. The guards below read this table; `askedAgain` also asks that
 * the new request be a confirmation (a select or an input after a Confirm settles in `answered`).
 */
export const SETTLES_IN = {
  asked: 'open',
  committed: 'committed',
  refused: 'refused',
  cancelled: 'cancelled',
  failed: 'failed',
  error: 'failed',
  answer: 'answered',
  said: 'answered',
  usage: 'answered',
  notice: 'answered',
} as const satisfies Record<RunEndKind, SettledState>;

export type Settled = { outcome: LineOutcome };

/** The one parameter every guard and action after the answer takes: how the extension's run ended. */
const settledWith = ({ event }: { event: { outcome: LineOutcome } }): Settled => ({ outcome: event.outcome });

/** Confirm and Cancel both answer the dialog; the run's end decides where the machine settles. */
function answering() {
  return {
    tags: ['busy'],
    on: {
      SETTLED: [
        { guard: { type: 'askedAgain', params: settledWith }, target: 'open', actions: { type: 'openDialog', params: settledWith } },
        { guard: { type: 'wasCommitted', params: settledWith }, target: 'committed', actions: { type: 'rememberEnd', params: settledWith } },
        { guard: { type: 'wasRefused', params: settledWith }, target: 'refused', actions: { type: 'rememberEnd', params: settledWith } },
        { guard: { type: 'wasCancelled', params: settledWith }, target: 'cancelled', actions: { type: 'rememberEnd', params: settledWith } },
        { guard: { type: 'didFail', params: settledWith }, target: 'failed', actions: { type: 'rememberEnd', params: settledWith } },
        { target: 'answered', actions: { type: 'rememberEnd', params: settledWith } },
      ],
      FAILED: { target: 'failed', actions: { type: 'rememberError', params: ({ event }: { event: { error: string } }) => ({ error: event.error }) } },
    },
  } as const;
}

/** A settled dialog accepts the next one the extension opens (or a dismissal); the outcome stays readable until then. */
function settled() {
  return {
    OPENED: { target: 'open', actions: { type: 'openDialog', params: ({ event }: { event: { outcome: LineOutcome } }) => ({ outcome: event.outcome }) } },
    DISMISS: 'idle',
  } as const;
}

export const CONFIRMATION_INITIAL = 'idle';

/**
 * The machine's top-level states, in definition order (the order the line and the chart show
 * them). `busy`: the dialog waits on the learner or on the answer.
 */
export const confirmationStates = {
  idle: { on: settled() },
  open: {
    tags: ['busy'],
    on: {
      CONFIRM: 'committing',
      CANCEL: 'cancelling',
    },
  },
  committing: answering(),
  cancelling: answering(),
  committed: { on: settled() },
  refused: { on: settled() },
  cancelled: { on: settled() },
  answered: { on: settled() },
  failed: { on: settled() },
} as const;

export type ConfirmationStateName = keyof typeof confirmationStates;

/** The state names in definition order: what the desk's machine line lists. */
export const CONFIRMATION_STATE_NAMES = Object.keys(confirmationStates) as ConfirmationStateName[];

/** The states tagged `busy`, read from the table above (a list of its own would drift from the machine). */
export const BUSY_STATES: ReadonlySet<ConfirmationStateName> = new Set(CONFIRMATION_STATE_NAMES.filter((name) => 'tags' in confirmationStates[name]));

export function isBusy(state: string | undefined): boolean {
  return state !== undefined && BUSY_STATES.has(state as ConfirmationStateName);
}
