import { FIXTURE_IDS } from '../fixture';
import type { EntryId } from '../ids';
import { reservedOf, type Snapshot } from '../snapshot';
import type { JournalEntry } from './entry';
import type { SessionJournal } from './journal';

/**
 * One change as shown: `text` is `basil-genovese +2`, `bean-scarlet −1` (a real minus, U+2212),
 * `agent on` / `agent off` or `no change`; `tone` says which, so nothing reads the text back.
 */
export interface DeskChip {
  readonly text: string;
  readonly tone: 'added' | 'removed' | 'agent' | 'none';
}

/** What a seed desk entry did, against the desk at its parent. */
export interface GraphDesk {
  /** The entry id its revision (`<sessionId>:<entryId>`) names: the entry itself. */
  readonly revisionEntryId: EntryId;
  /** What changed, in fixture order, then the agent switch; `no change` when the desks are equal. */
  readonly changes: readonly DeskChip[];
  /** This entry's own snapshot fails validation. */
  readonly corrupt: boolean;
  /** Why it fails (only when `corrupt`). */
  readonly problem: string | null;
  /**
   * A seed desk entry above on the branch is corrupt, so the branch stays corrupt whatever this
   * entry holds: its id. `changes` is then empty (there is no valid desk to compare with).
   */
  readonly corruptAbove: EntryId | null;
}

const MINUS = '\u2212';

/** Chips for what changed from `before` to `after`, in fixture order, then the agent switch. */
export function deskChanges(before: Snapshot, after: Snapshot): DeskChip[] {
  const chips: DeskChip[] = [];
  for (const id of FIXTURE_IDS) {
    const delta = reservedOf(after, id) - reservedOf(before, id);
    if (delta > 0) chips.push({ text: `${id} +${delta}`, tone: 'added' });
    else if (delta < 0) chips.push({ text: `${id} ${MINUS}${-delta}`, tone: 'removed' });
  }
  if (after.agentEnabled !== before.agentEnabled) chips.push({ text: `agent ${after.agentEnabled ? 'on' : 'off'}`, tone: 'agent' });
  return chips.length > 0 ? chips : [{ text: 'no change', tone: 'none' }];
}

/** A seed desk entry's row facts in the session graph: what it changed, or where its branch went corrupt. */
export function graphDeskOf(journal: SessionJournal, entry: JournalEntry): GraphDesk {
  const base = { revisionEntryId: entry.id, changes: [], corrupt: false, problem: null, corruptAbove: null };
  // The journal's desk index already validated every snapshot: O(1) per entry, no parse here.
  const after = journal.state(entry.id);
  if (!after.ok) {
    return after.corruptEntryId === entry.id ? { ...base, corrupt: true, problem: after.problem } : { ...base, corruptAbove: after.corruptEntryId };
  }
  const before = journal.state(journal.parentIdOf(entry.id));
  return { ...base, changes: before.ok ? deskChanges(before.snapshot, after.snapshot) : [] };
}
