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
  /** How many entries the segment holds (readers may rely on it and on `first`, never on SEGMENT_ENTRIES). */
  readonly count: number;
  /**
   * The segment's entries as JSON lines, UTF-8: one entry per line, lines holding only
   * whitespace ignored (a CRLF file's '\r' is whitespace to JSON.parse). An imported entry the
   * import left unchanged is its line in the file, byte for byte; others are JSON.stringify'd.
   *
   * A Blob, and for an import a Blob made of slices of the imported file: Chromium copies such a
   * Blob into the database itself, off this thread, where a string (or the entries as objects)
   * goes through IndexedDB's value serialization here. Measured on a 37 MB, 100k-entry import:
   * about 1 s to store as strings or objects, a fifth of that as Blobs (bench/import.bench.ts).
   */
  readonly jsonl: Blob;
}

/** The entries of a stored segment, in file order. */
export async function entriesOf(segment: Pick<SegmentRecord, 'jsonl' | 'count'>): Promise<JournalEntry[]> {
  const entries: JournalEntry[] = [];
  // Written from entries that passed the import's schema: our own data, not a trust boundary.
  for (const line of (await segment.jsonl.text()).split('\n')) if (line.trim() !== '') entries.push(JSON.parse(line) as JournalEntry);
  if (entries.length !== segment.count) throw new Error(`A stored segment holds ${entries.length} entries where its record says ${segment.count}.`);
  return entries;
}

/**
 * Makes the Blob of the segment holding `entries` (the created entries from position `first`).
 * The default writes each entry with JSON.stringify; an import hands the file's own lines.
 */
export type SegmentSource = (entries: readonly JournalEntry[], first: number) => Blob;

export const stringifiedSegment: SegmentSource = (entries) => new Blob([entries.map((entry) => JSON.stringify(entry)).join('\n')]);

/**
 * The segments of an import, cut from the file itself: `lineOf[p]` is the 1-based line entry p
 * was read from (0: the import changed it, so it is written anew), `lineStarts[l]` the byte
 * offset where 0-based line l starts. Consecutive lines are one slice, so a plain file's segment
 * is a single slice of it; nothing is copied on this thread.
 */
export function fileSegments(file: Blob, lineStarts: Float64Array, lineOf: Int32Array): SegmentSource {
  const start = (line: number) => lineStarts[line - 1] as number;
  // The '\n' ending a line is left out; the next slice or part starts after one put back.
  const end = (line: number) => (line < lineStarts.length ? (lineStarts[line] as number) - 1 : file.size);
  return (entries, first) => {
    const parts: BlobPart[] = [];
    let runFirst = 0;
    let runLast = 0;
    const flush = () => {
      if (runFirst > 0) parts.push(file.slice(start(runFirst), end(runLast)), '\n');
      runFirst = 0;
    };
    entries.forEach((entry, at) => {
      const line = lineOf[first + at] ?? 0;
      if (line > 0 && runFirst > 0 && line === runLast + 1) {
        runLast = line;
        return;
      }
      flush();
      if (line > 0) runFirst = runLast = line;
      else parts.push(JSON.stringify(entry), '\n');
    });
    flush();
    return new Blob(parts);
  };
}

/** Where each 0-based line of `bytes` starts: after every '\n' (a byte no other UTF-8 character contains). */
export function lineStartsOf(bytes: Uint8Array): Float64Array {
  const starts: number[] = [0];
  for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) starts.push(at + 1);
  return Float64Array.from(starts);
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
  readonly count: number;
  /** As `SegmentRecord.jsonl`. */
  readonly jsonl: Blob;
}

export interface CreatedLayout {
  /** Every entry but the last, in order, one segment at a time. */
  readonly segments: Iterable<LaidOutSegment>;
  /** Null when there are no segments (fewer than two entries). */
  readonly index: Omit<ImportIndexRecord, 'sessionId'> | null;
  /** The last entry with its index and tally; null for an empty session. */
  readonly last: { readonly entry: JournalEntry; readonly parentId: EntryId | null; readonly desk: DeskIndex; readonly tally: Tally } | null;
}

/**
 * The layout of a journal's entries, derived from the journal itself (its links and desk index are
 * the one derivation); `source` makes each segment's Blob (an import's: slices of its file).
 */
export function layoutOf(journal: SessionJournal, source: SegmentSource = stringifiedSegment): CreatedLayout {
  const entries = journal.entries();
  const count = entries.length;
  const lastEntry = entries[count - 1];
  if (lastEntry === undefined) return { segments: [], index: null, last: null };
  let tally = EMPTY_TALLY;
  for (const entry of entries) tally = nextTally(tally, entry);
  const last = { entry: lastEntry, parentId: journal.parentIdOf(lastEntry.id), desk: deskIndexIn(journal, lastEntry.id), tally };
  if (count < 2) return { segments: [], index: null, last };

  // Positions are the journal's own append order (seqOf): no second map of 100k ids.
  const positionOf = (id: EntryId | null): number => (id === null ? -1 : (journal.seqOf(id) ?? -1));
  const ids: string[] = new Array<string>(count);
  const parents = new Int32Array(count);
  const deskHeads = new Int32Array(count);
  const deskLinks = new Map<number, DeskLinkState>();
  entries.forEach((entry, at) => {
    ids[at] = entry.id;
    parents[at] = positionOf(journal.parentIdOf(entry.id));
    deskHeads[at] = positionOf(journal.deskHeadOf(entry.id));
    if (isSeedDeskEntry(entry)) deskLinks.set(at, deskIndexIn(journal, entry.id).deskLink);
  });
  return { segments: segmentsOf(entries, count - 1, source), index: { ids, parents, deskHeads, deskLinks }, last };
}

/** The first `count` entries, a segment at a time; each Blob is made only when its turn comes. */
function* segmentsOf(entries: readonly JournalEntry[], count: number, source: SegmentSource): Generator<LaidOutSegment> {
  for (let first = 0; first < count; first += SEGMENT_ENTRIES) {
    const end = Math.min(first + SEGMENT_ENTRIES, count);
    yield { first, count: end - first, jsonl: source(entries.slice(first, end), first) };
  }
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
