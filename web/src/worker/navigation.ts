import type { EntryId } from '$domain/ids';
import type { EntryTarget } from '../protocol/messages';
import type { HostCore } from './hostCore';
import { extensionStops, treePreparation } from './omp/beforeEvents';
import type { Invocation } from './omp/invocation';
import type { SessionChanged } from './sessionChanges';
import { resolveTarget } from './projections';

/**
 * Moves of the in-memory leaf, with the host's `/tree` rules (`journal.navigateTo`). A move
 * appends nothing: a reload returns to the last appended entry, and a reopen keeps the move only
 * because closing appends `session_exit` under the leaf (once the session holds an assistant message).
 */

/**
 * Host `/tree` selection of the entry `target` names. An extension that listens to
 * `session_before_tree` is asked first, and may cancel the move (OMP's `navigateTree`); without
 * one the move is made at once, as before.
 */
export function navigate(core: HostCore, target: EntryTarget, run?: Invocation): SessionChanged | Promise<SessionChanged> {
  refuseMoveWhileApprovalWaits(core);
  const found = resolveTarget(core.journal, target);
  if (!found.ok) throw new Error(found.why);
  if (core.extensions.handlersOf('session_before_tree').length === 0) return moveTo(core, found.id);
  const event = { type: 'session_before_tree', preparation: treePreparation(core, found.id), signal: new AbortController().signal } as const;
  return extensionStops(core, event, 'the move in the tree', run).then((stopped) => (stopped === null ? moveTo(core, found.id) : { did: 'cancelled', why: stopped }));
}

function moveTo(core: HostCore, id: EntryId): SessionChanged {
  const from = core.journal.leafId;
  const result = core.journal.navigateTo(id);
  core.noteLeafMove(from);
  core.notice = core.journal.leafIsTransient() ? transientNotice(result.leafId) : null;
  return { did: 'moved' };
}

/** Moves the leaf one step up (the race demo's "tree moves"). */
export function stepBack(core: HostCore): void {
  refuseMoveWhileApprovalWaits(core);
  const leaf = core.journal.leafId;
  if (leaf === null) return;
  core.journal.moveLeaf(core.journal.parentIdOf(leaf));
  core.noteLeafMove(leaf);
  core.notice = transientNotice(core.journal.leafId);
}

/** The leaf straight onto `entryId` (no `/tree` user-message rule): tests and the real-host differential use it. */
export function moveLeaf(core: HostCore, entryId: EntryId | null): void {
  refuseMoveWhileApprovalWaits(core);
  const from = core.journal.leafId;
  core.journal.moveLeaf(entryId);
  core.noteLeafMove(from);
  core.notice = core.journal.leafIsTransient() ? transientNotice(entryId) : null;
}

/** The call's result must land under its own tool-call message, so the tree stays put meanwhile. */
function refuseMoveWhileApprovalWaits(core: HostCore): void {
  core.refuseWhileApprovalWaits('move in the session tree');
}

function transientNotice(leafId: EntryId | null): string {
  return `The leaf moved to ${leafId ?? 'the start of the session'} without appending anything. A reopen lands on the newest entry, so it keeps this spot only if something is appended here first: closing a session that holds an assistant message appends session_exit here, as the real OMP does; a reload appends nothing and returns to the last appended entry.`;
}
