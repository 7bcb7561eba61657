/**
 * Two branches side by side: their desks (from the journal's O(1) index), where they part, what each
 * added since, and what the two desks would add up to if someone wrongly treated sibling branches as
 * one shared desk (the lesson's two-tab case: 3 + 3 marigold of 3 packets).
 *
 * Runs in the worker (imports `deskRows` from snapshot.ts, which imports zod).
 */
import { FIXTURE, type FixtureId } from '../fixture';
import type { EntryId, Revision } from '../ids';
import { deskRows, EMPTY_SNAPSHOT, type DeskRow } from '../snapshot';
import { entryTypeOf, isSeedDeskEntry } from './entry';
import type { SessionJournal } from './journal';
import { JournalError } from './journalError';
import { entryDisplayText, entryRoleOf } from './treeLayout';

export interface Side {
  readonly tipId: EntryId | null;
  /** The revision of the branch ending at `tipId`. */
  readonly revision: Revision;
  readonly ok: boolean;
  /** False when the side is corrupt. */
  readonly agentEnabled: boolean;
  /** `deskRows` of the side's desk; of the empty desk when the side is corrupt. */
  readonly rows: readonly DeskRow[];
  /** Only when corrupt: the first seed desk entry on the branch that failed validation. */
  readonly corruptEntryId?: EntryId;
  /** Only when corrupt: why it failed. */
  readonly problem?: string;
}

export interface SinceEntry {
  readonly id: EntryId;
  readonly type: string;
  /** As `TreeRow.role`. */
  readonly role: string;
  /** As `TreeRow.text`. */
  readonly text: string;
  readonly isSeedDesk: boolean;
}

export interface ReservedDifference {
  readonly id: FixtureId;
  readonly left: number;
  readonly right: number;
}

export interface CombinedReserved {
  readonly id: FixtureId;
  /** Left reserved + right reserved (a corrupt side counts 0, as its rows show). */
  readonly reserved: number;
  readonly packets: number;
}

export interface BranchComparison {
  readonly left: Side;
  readonly right: Side;
  /** The deepest common ancestor (an entry is its own ancestor); null when they share nothing. */
  readonly forkPointId: EntryId | null;
  /** Entries after the fork point up to and including the left tip, root → tip. */
  readonly leftSince: readonly SinceEntry[];
  readonly rightSince: readonly SinceEntry[];
  /** Fixture items whose reserved counts differ, in fixture order; [] when either side is corrupt. */
  readonly differences: readonly ReservedDifference[];
  /** The agent grant differs; false when either side is corrupt. */
  readonly grantDiffers: boolean;
  /** Every fixture item, in fixture order. */
  readonly combinedReserved: readonly CombinedReserved[];
}

function requireKnown(journal: SessionJournal, id: EntryId | null): void {
  if (id !== null && !journal.has(id)) throw new JournalError(`Entry ${id} not found`);
}

/**
 * The deepest common ancestor of two entries (inclusive: of an ancestor and its descendant it is the
 * ancestor), or null when either is null or they lie under different roots. Walks parents only:
 * O(depth difference + distance to the fork point). Throws `JournalError` for an unknown id.
 */
export function findForkPoint(journal: SessionJournal, leftId: EntryId | null, rightId: EntryId | null): EntryId | null {
  requireKnown(journal, leftId);
  requireKnown(journal, rightId);
  if (leftId === null || rightId === null) return null;
  let a: EntryId | null = leftId;
  let b: EntryId | null = rightId;
  let depthA = journal.depthOf(leftId) ?? 0;
  let depthB = journal.depthOf(rightId) ?? 0;
  while (a !== null && depthA > depthB) {
    a = journal.parentIdOf(a);
    depthA--;
  }
  while (b !== null && depthB > depthA) {
    b = journal.parentIdOf(b);
    depthB--;
  }
  while (a !== b) {
    if (a === null || b === null) return null;
    a = journal.parentIdOf(a);
    b = journal.parentIdOf(b);
  }
  return a;
}

function since(journal: SessionJournal, tipId: EntryId | null, forkPointId: EntryId | null): SinceEntry[] {
  const out: SinceEntry[] = [];
  for (let cursor = tipId; cursor !== null && cursor !== forkPointId; cursor = journal.parentIdOf(cursor)) {
    const entry = journal.get(cursor);
    if (!entry) break;
    out.push({ id: entry.id, type: entryTypeOf(entry), role: entryRoleOf(entry), text: entryDisplayText(journal, entry), isSeedDesk: isSeedDeskEntry(entry) });
  }
  return out.reverse();
}

function sideOf(journal: SessionJournal, tipId: EntryId | null): Side {
  const state = journal.state(tipId);
  if (state.ok) {
    return { tipId, revision: state.revision, ok: true, agentEnabled: state.snapshot.agentEnabled, rows: deskRows(state.snapshot) };
  }
  return {
    tipId,
    revision: state.revision,
    ok: false,
    agentEnabled: false,
    rows: deskRows(EMPTY_SNAPSHOT),
    corruptEntryId: state.corruptEntryId,
    problem: state.problem,
  };
}

function reservedIn(side: Side, id: FixtureId): number {
  return side.rows.find((row) => row.id === id)?.reserved ?? 0;
}

/**
 * Compare the branches ending at `leftId` and `rightId` (null: the empty branch before any entry).
 * Throws `JournalError` for an unknown id.
 */
export function compareBranches(journal: SessionJournal, leftId: EntryId | null, rightId: EntryId | null): BranchComparison {
  const forkPointId = findForkPoint(journal, leftId, rightId);
  const left = sideOf(journal, leftId);
  const right = sideOf(journal, rightId);
  const comparable = left.ok && right.ok;
  const differences: ReservedDifference[] = [];
  const combinedReserved: CombinedReserved[] = [];
  for (const item of FIXTURE) {
    const l = reservedIn(left, item.id);
    const r = reservedIn(right, item.id);
    if (comparable && l !== r) differences.push({ id: item.id, left: l, right: r });
    combinedReserved.push({ id: item.id, reserved: l + r, packets: item.packets });
  }
  return {
    left,
    right,
    forkPointId,
    leftSince: since(journal, leftId, forkPointId),
    rightSince: since(journal, rightId, forkPointId),
    differences,
    grantDiffers: comparable && left.agentEnabled !== right.agentEnabled,
    combinedReserved,
  };
}
