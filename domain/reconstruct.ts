import type { EntryId, Revision, SessionId } from './ids';
import { isSeedDeskEntry, type JournalEntry } from './journal/entry';
import { revisionOf } from './revision';
import { EMPTY_SNAPSHOT, parseSnapshot, type Snapshot } from './snapshot';

export type BranchState =
  | {
      readonly ok: true;
      readonly sessionId: SessionId;
      readonly revision: Revision;
      /** The latest seed desk entry on the branch, or null before the first one. */
      readonly deskHead: EntryId | null;
      readonly snapshot: Snapshot;
    }
  | {
      readonly ok: false;
      readonly sessionId: SessionId;
      readonly revision: Revision;
      readonly deskHead: EntryId | null;
      /** The first seed desk entry on the branch that failed validation. */
      readonly corruptEntryId: EntryId;
      readonly problem: string;
    };

/** What a desk entry contributes to the chain of desk entries above it. */
export type DeskLinkState =
  | { readonly ok: true; readonly snapshot: Snapshot }
  | { readonly ok: false; readonly corruptEntryId: EntryId; readonly problem: string };

export const ROOT_LINK: DeskLinkState = { ok: true, snapshot: EMPTY_SNAPSHOT };

/**
 * Fold one seed desk entry onto the state above it. A corrupt ancestor stays corrupt: a later
 * valid entry never launders an earlier invalid one.
 */
export function foldDeskEntry(above: DeskLinkState, entry: JournalEntry): DeskLinkState {
  // #region validate-every-snapshot: one invalid entry makes the branch corrupt, whatever follows
  if (!above.ok) return above;
  const parsed = parseSnapshot(entry['data']);
  return parsed.ok ? { ok: true, snapshot: parsed.snapshot } : { ok: false, corruptEntryId: entry.id, problem: parsed.problem };
  // #endregion
}

/**
 * The desk index of one entry: the nearest seed desk entry at or above it (`deskHead`) and the
 * state of the branch ending at it (`deskLink`). Rebuildable from the entries alone.
 */
export interface DeskIndex {
  readonly deskHead: EntryId | null;
  readonly deskLink: DeskLinkState;
}

/** The index above a root: no desk entry yet, the empty desk. */
export const ROOT_DESK_INDEX: DeskIndex = { deskHead: null, deskLink: ROOT_LINK };

/**
 * THE derivation of the desk index: an entry's index from its parent's (ROOT_DESK_INDEX for a
 * root). The journal in memory and the store on disk both call this, so they cannot disagree.
 * An entry that is not a seed desk entry shares its parent's index object: no allocation.
 */
export function deskIndexOf(entry: JournalEntry, parent: DeskIndex): DeskIndex {
  return isSeedDeskEntry(entry) ? { deskHead: entry.id, deskLink: foldDeskEntry(parent.deskLink, entry) } : parent;
}

/** The branch state an index describes. */
export function stateOfIndex(sessionId: SessionId, index: DeskIndex): BranchState {
  return branchStateFrom(sessionId, index.deskHead, index.deskLink);
}

export function branchStateFrom(sessionId: SessionId, deskHead: EntryId | null, link: DeskLinkState): BranchState {
  const revision = revisionOf(sessionId, deskHead);
  return link.ok
    ? { ok: true, sessionId, revision, deskHead, snapshot: link.snapshot }
    : { ok: false, sessionId, revision, deskHead, corruptEntryId: link.corruptEntryId, problem: link.problem };
}

/**
 * The reference reconstruction, as the lesson's extension does it: walk the branch root to leaf,
 * validate every seed desk entry met, let the last one win. The journal's index must agree with
 * this on every branch (property-tested).
 */
export function reconstructBranch(sessionId: SessionId, branch: readonly JournalEntry[]): BranchState {
  let link: DeskLinkState = ROOT_LINK;
  let deskHead: EntryId | null = null;
  for (const entry of branch) {
    if (!isSeedDeskEntry(entry)) continue;
    link = foldDeskEntry(link, entry);
    deskHead = entry.id;
  }
  return branchStateFrom(sessionId, deskHead, link);
}
