import type { EntryId, SessionId } from '$domain/ids';
import { isSeedDeskEntry, messageRole, type JournalEntry } from '$domain/journal/entry';
import type { SessionJournal } from '$domain/journal/journal';
import { ROOT_DESK_INDEX, type DeskIndex, type DeskLinkState } from '$domain/reconstruct';

/**
 * How the entries a session is created with (an import, a fork, a migrated v1 session) are laid
 * out: every entry but the last in segments of up to SEGMENT_ENTRIES entries, plus
 * one index record of ids, parents and desk index. The last entry becomes an ordinary entry
 * record, so every session's head is its last entry record (docs/persisted-format.md).
 * Pure: no IndexedDB here.
 *
 * Why segments: IndexedDB costs about 70 µs per record in Chromium whatever its size, so 100k
 * entries as records take seconds; as 25 records they take what writing the bytes takes.
 */

/**
 * Entries per segment. Fewer, larger segments read back faster (Chromium keeps values over 64 KB
 * as files, one per value); each is one step of the import's progress. Readers must not assume it.
 */
export const SEGMENT_ENTRIES = 4096;

export interface SegmentRecord {
  readonly sessionId: SessionId;
  /** 0, 1, 2… in file order. */
  readonly index: number;
  /** Position of the segment's first entry in the session. */
  readonly first: number;
  /**
   * The segment's entries, each with its own key order, as IndexedDB clones them: measured in
   * Chromium, a quarter faster to write than the same entries as JSON text, as fast to read back.
   */
  readonly entries: readonly JournalEntry[];
}

/** Ids, parents and desk index of every entry a session was created with, by position. */
export interface ImportIndexRecord {
  readonly sessionId: SessionId;
  /** Entry ids in file order; a position is an index into this array. */
  readonly ids: readonly string[];
  /** Position of each entry's parent as every walk sees it (`SessionJournal.parentIdOf`), -1 for a root. */
  readonly parents: Int32Array;
  /** Position of each entry's desk head, -1 when no seed desk entry is at or above it. */
  readonly deskHeads: Int32Array;
  /** The branch state at each seed desk entry, by that entry's position. */
  readonly deskLinks: ReadonlyMap<number, DeskLinkState>;
}

/** Running counts that each entry record carries, so the last record alone describes the session. */
export interface Tally {
  /** Position of the entry in the session's append order, 0-based. */
  readonly position: number;
  /** Seed desk entries up to and including this one, all branches. */
  readonly deskEntries: number;
  /** Whether any entry up to and including this one is an assistant message. */
  readonly hasAssistant: boolean;
}

/** The tally before the first entry. */
export const EMPTY_TALLY: Tally = { position: -1, deskEntries: 0, hasAssistant: false };

export function nextTally(before: Tally, entry: JournalEntry): Tally {
  return {
    position: before.position + 1,
    deskEntries: before.deskEntries + (isSeedDeskEntry(entry) ? 1 : 0),
    hasAssistant: before.hasAssistant || messageRole(entry) === 'assistant',
  };
}

export interface LaidOutSegment {
  readonly first: number;
  readonly entries: readonly JournalEntry[];
}

export interface CreatedLayout {
  /** Every entry but the last, in order, one segment at a time. */
  readonly segments: Iterable<LaidOutSegment>;
  /** Null when there are no segments (fewer than two entries). */
  readonly index: Omit<ImportIndexRecord, 'sessionId'> | null;
  /** The last entry with its index and tally; null for an empty session. */
  readonly last: { readonly entry: JournalEntry; readonly parentId: EntryId | null; readonly desk: DeskIndex; readonly tally: Tally } | null;
}

/** The layout of a journal's entries, derived from the journal itself (its links and desk index are the one derivation). */
export function layoutOf(journal: SessionJournal): CreatedLayout {
  const entries = journal.entries();
  const count = entries.length;
  const lastEntry = entries[count - 1];
  if (lastEntry === undefined) return { segments: [], index: null, last: null };
  let tally = EMPTY_TALLY;
  for (const entry of entries) tally = nextTally(tally, entry);
  const last = { entry: lastEntry, parentId: journal.parentIdOf(lastEntry.id), desk: deskIndexIn(journal, lastEntry.id), tally };
  if (count < 2) return { segments: [], index: null, last };

  const position = new Map<string, number>();
  const ids: string[] = new Array<string>(count);
  entries.forEach((entry, at) => {
    position.set(entry.id, at);
    ids[at] = entry.id;
  });
  const parents = new Int32Array(count);
  const deskHeads = new Int32Array(count);
  const deskLinks = new Map<number, DeskLinkState>();
  entries.forEach((entry, at) => {
    const parent = journal.parentIdOf(entry.id);
    parents[at] = parent === null ? -1 : (position.get(parent) ?? -1);
    const head = journal.deskHeadOf(entry.id);
    deskHeads[at] = head === null ? -1 : (position.get(head) ?? -1);
    if (isSeedDeskEntry(entry)) deskLinks.set(at, deskIndexIn(journal, entry.id).deskLink);
  });
  return { segments: segmentsOf(entries.slice(0, count - 1)), index: { ids, parents, deskHeads, deskLinks }, last };
}

function* segmentsOf(entries: readonly JournalEntry[]): Generator<LaidOutSegment> {
  for (let first = 0; first < entries.length; first += SEGMENT_ENTRIES) yield { first, entries: entries.slice(first, first + SEGMENT_ENTRIES) };
}

function deskIndexIn(journal: SessionJournal, id: EntryId): DeskIndex {
  const state = journal.state(id);
  return { deskHead: state.deskHead, deskLink: state.ok ? { ok: true, snapshot: state.snapshot } : { ok: false, corruptEntryId: state.corruptEntryId, problem: state.problem } };
}

/** Where an id sits in an import index, or -1. */
export function positionIn(index: Pick<ImportIndexRecord, 'ids'>, id: string): number {
  return index.ids.indexOf(id);
}

/** The desk index of the entry at `position`. */
export function deskIndexAt(index: ImportIndexRecord, position: number): DeskIndex {
  const head = index.deskHeads[position] ?? -1;
  if (head < 0) return ROOT_DESK_INDEX;
  const link = index.deskLinks.get(head);
  const id = index.ids[head];
  if (link === undefined || id === undefined) throw new Error(`The import index of session ${index.sessionId} has no desk link at position ${head}.`);
  return { deskHead: id as EntryId, deskLink: link };
}

/** Positions whose parent is `parent` (-1: the roots), in file order. */
export function childPositions(index: Pick<ImportIndexRecord, 'parents'>, parent: number): number[] {
  const out: number[] = [];
  index.parents.forEach((value, at) => {
    if (value === parent) out.push(at);
  });
  return out;
}
