import { fromPromise, type Actor, type SnapshotFrom } from 'xstate';
import { approvalMachine } from '../machines/approval';
import { confirmationMachine } from '../machines/confirmation';
import type { LineOutcome, ToolCallOutcome } from '../protocol/messages';
import { runActor } from './runActor';

/**
 * The page's two dialog machines as running actors, with XState. Not in the first screen: the
 * command line loads this the first time it runs a line and starts the confirmation actor the
 * first time the extension opens a dialog; the tool panel, likewise, at its first call and its
 * first approval prompt. Until then their snapshots are undefined, which the views read as idle.
 */
export type ConfirmationActor = Actor<typeof confirmationMachine>;
export type ConfirmationSnapshot = SnapshotFrom<typeof confirmationMachine>;
export type ApprovalActor = Actor<typeof approvalMachine>;
export type ApprovalSnapshot = SnapshotFrom<typeof approvalMachine>;

type Watch<S> = (snapshot: S, previous: S) => void;

/** The confirmation machine, its `answer` one `answerDialog` request (`answer` here). */
export function startConfirmation(answer: (input: { dialogId: string; confirmed: boolean }) => Promise<LineOutcome>, onSnapshot: Watch<ConfirmationSnapshot>): ConfirmationActor {
  return runActor(confirmationMachine.provide({ actors: { answer: fromPromise(({ input }) => answer(input)) } }), onSnapshot);
}

/** The approval machine, its `answer` one `answerApproval` request (`answer` here). */
export function startApproval(answer: (input: { callId: string; approved: boolean }) => Promise<ToolCallOutcome>, onSnapshot: Watch<ApprovalSnapshot>): ApprovalActor {
  return runActor(approvalMachine.provide({ actors: { answer: fromPromise(({ input }) => answer(input)) } }), onSnapshot);
}
