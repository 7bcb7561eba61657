import { statusText } from '../domain/deskText';
import { asEntryId, asSessionId } from '../domain/ids';
import { customEntry, type JournalEntry } from '../domain/journal/entry';
import { reconstructBranch, type BranchState } from '../domain/reconstruct';
import { SEED_DESK_CHANGED_EVENT } from '../domain/seedDeskNames';
import { deskRows, SEED_DESK_CUSTOM_TYPE, type Snapshot } from '../domain/snapshot';
import type { ExtensionAPI, ExtensionContext, HostEntry } from './ompApi';

export const STATUS_KEY = 'seed-desk';

/**
 * The desk on the session's current branch, rebuilt from scratch on every call with the domain's
 * own reconstruction (every snapshot validated, the last one wins). Only seed desk entries take
 * part in it, so only they are carried over; their `data` is the untrusted part and is parsed there.
 */
export function readDesk(ctx: ExtensionContext): BranchState {
  // #region read-desk-branch: only the active branch, root to leaf, never the whole file
  const sessionManager = ctx.sessionManager;
  const deskEntries: JournalEntry[] = [];
  for (const entry of sessionManager.getBranch()) {
    if (isDeskEntry(entry)) {
      deskEntries.push(customEntry(SEED_DESK_CUSTOM_TYPE, entry['data'], { id: asEntryId(entry.id), parentId: entry.parentId === null ? null : asEntryId(entry.parentId), timestamp: entry.timestamp }));
    }
  }
  return reconstructBranch(asSessionId(sessionManager.getSessionId()), deskEntries);
  // #endregion
}

function isDeskEntry(entry: HostEntry): boolean {
  return entry.type === 'custom' && entry['customType'] === SEED_DESK_CUSTOM_TYPE;
}

/** The one status line, the same words as the playground's status bar. */
export function statusLine(state: BranchState): string {
  return state.ok
    ? statusText(deskRows(state.snapshot), state.snapshot.agentEnabled, state.revision)
    : `Seed desk: corrupt branch (entry ${state.corruptEntryId}); revision ${state.revision}`;
}

export function showStatus(ctx: ExtensionContext): void {
  ctx.ui.setStatus(STATUS_KEY, statusLine(readDesk(ctx)));
}

/**
 * Append one snapshot and tell everyone: exactly one entry per change. The host keeps the object
 * it is given, so it gets a copy that nothing here can mutate later.
 */
export function commitSnapshot(pi: ExtensionAPI, ctx: ExtensionContext, snapshot: Snapshot, reason: string): BranchState {
  // #region single-append: one entry per change, with no await between the decision and here
  // appendEntry is synchronous and returns nothing: no receipt, and no promise another call could
  // slip in front of. That keeps this step whole inside one JavaScript run; it is not a lock
  // between processes.
  pi.appendEntry(SEED_DESK_CUSTOM_TYPE, structuredClone(snapshot));
  // #endregion
  const state = readDesk(ctx);
  ctx.ui.setStatus(STATUS_KEY, statusLine(state));
  pi.events.emit(SEED_DESK_CHANGED_EVENT, {
    reason,
    revision: state.revision,
    agentEnabled: state.ok ? state.snapshot.agentEnabled : null,
    quantities: state.ok ? state.snapshot.quantities : null,
  });
  return state;
}
