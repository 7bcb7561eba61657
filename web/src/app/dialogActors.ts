import type { Actor, SnapshotFrom } from 'xstate';
import { approvalMachine } from '../machines/approval';
import { confirmationMachine } from '../machines/confirmation';
import { runActor } from './runActor';

/**
 * The page's two dialog machines as running actors, with XState. Not in the first screen: the
 * command line loads this the first time the extension asks for a confirmation, the tool panel at
 * its first call (the approval actor starts when a call first needs approval). Until then their snapshots are undefined, which the views read
 * as idle. The machines send nothing: their features send the answers and report back by events.
 */
export type ConfirmationActor = Actor<typeof confirmationMachine>;
export type ConfirmationSnapshot = SnapshotFrom<typeof confirmationMachine>;
export type ApprovalActor = Actor<typeof approvalMachine>;
export type ApprovalSnapshot = SnapshotFrom<typeof approvalMachine>;

type Watch<S> = (snapshot: S, previous: S) => void;

export function startConfirmation(onSnapshot: Watch<ConfirmationSnapshot>): ConfirmationActor {
  return runActor(confirmationMachine, onSnapshot);
}

export function startApproval(onSnapshot: Watch<ApprovalSnapshot>): ApprovalActor {
  return runActor(approvalMachine, onSnapshot);
}
