import type { EntryId, SessionId } from '$domain/ids';
import type { JournalEntry } from '$domain/journal/entry';
import { deskIndexOf, ROOT_DESK_INDEX, stateOfIndex, type BranchState, type DeskIndex } from '$domain/reconstruct';
import { deskIndexAt, EMPTY_TALLY, nextTally, positionIn, type Tally } from './segments';
import { StorageFailure } from './storeFailures';
import type { KnownHeads } from './storeKnown';
import { BY_ID, BY_SESSION, ENTRIES, entryRecord, IMPORTS, SESSIONS, sessionRange, type EntryRecord, type NewEntryRecord } from './storeSchema';
import { result, typed, type Scope, type WritePlan, type WriteTx } from './storeWriter';

/**
 * Appending on a branch head: the write behind JournalStore's `append` and `commitChecked`. The
 * head is what this store knows it stored this tenure (storeKnown.ts), or else read inside the
 * append's own transaction (the class comment in store.ts says why).
 */

/** What a checked commit decided on the stored head. */
export type CheckedAppend<R> =
  | { readonly append: false; readonly reason: R }
  | { readonly append: true; readonly entries: readonly JournalEntry[] };

export type CommitOutcome<R> =
  | { readonly kind: 'appended'; readonly records: readonly EntryRecord[] }
  | { readonly kind: 'declined'; readonly reason: R };

const HEAD_READ: Scope = [SESSIONS, ENTRIES, IMPORTS];
const ADDS_ONLY: Scope = [ENTRIES];

/**
 * The write that lets `decide` judge the stored state of the branch ending at `leafId`,
 * synchronously, and appends what it returns, in tenure `epoch`; once committed, `known` learns
 * the head it read and the records it added.
 */
export function appendPlan<R>(
  known: KnownHeads,
  epoch: number | null,
  sessionId: SessionId,
  leafId: EntryId | null,
  decide: (state: BranchState) => CheckedAppend<R>,
): WritePlan<CommitOutcome<R>> {
  const knownHead = known.lookup(epoch, sessionId, leafId);
  const appendOn = async (tx: IDBTransaction, leaf: DeskIndex, tally: Tally, finish: () => void): Promise<CommitOutcome<R>> => {
    const verdict = decide(stateOfIndex(sessionId, leaf));
    if (!verdict.append) return { kind: 'declined', reason: verdict.reason };
    const drafts = draftAppends(sessionId, leafId, leaf, tally, verdict.entries);
    const store = tx.objectStore(ENTRIES);
    const pending: Promise<IDBValidKey>[] = [];
    try {
      for (const draft of drafts) pending.push(result(store.add(draft)));
    } catch (error) {
      // An add that throws at once (DataCloneError) aborts the transaction: the earlier adds fail with it.
      for (const earlier of pending) earlier.catch(() => undefined);
      throw error;
    }
    try {
      finish();
    } finally {
      // Settled either way: a deliberate abort fails them, and `write()` reports that.
      for (const request of pending) request.catch(() => undefined);
    }
    const seqs = await Promise.all(pending);
    return { kind: 'appended', records: drafts.map((draft, index) => ({ ...draft, seq: seqs[index] as number })) };
  };
  let head = knownHead;
  return {
    scope: knownHead ? ADDS_ONLY : HEAD_READ,
    run: async (tx, finish) => {
      head ??= await readHead(typed(tx), sessionId, leafId);
      return appendOn(tx, head.desk, head.tally, finish);
    },
    committed: (outcome) => {
      if (!head) return;
      const records = outcome.kind === 'appended' ? outcome.records : [];
      const seen: [string, DeskIndex][] = leafId === null ? [] : [[leafId, head.desk]];
      for (const record of records) seen.push([record.id, record]);
      known.learn(epoch, sessionId, records.at(-1) ?? head.tally, seen);
    },
  };
}

/**
 * The stored head a write depends on, read inside its transaction: the session must exist, the
 * leaf must be stored (as a record, or among the entries the session was created with), and
 * the session's last record gives the tally the new records continue.
 */
async function readHead(tx: WriteTx, sessionId: SessionId, leafId: EntryId | null): Promise<{ desk: DeskIndex; tally: Tally }> {
  const [session, last, leaf] = await Promise.all([
    tx.objectStore(SESSIONS).get(sessionId),
    tx.objectStore(ENTRIES).index(BY_SESSION).openCursor(sessionRange(sessionId), 'prev'),
    leafId === null ? undefined : tx.objectStore(ENTRIES).index(BY_ID).get([sessionId, leafId]),
  ]);
  if (!session) throw new StorageFailure(`Session ${sessionId} is not in the database (was it deleted in another tab?).`);
  const tally = last?.value ?? EMPTY_TALLY;
  if (leafId === null) return { desk: ROOT_DESK_INDEX, tally };
  if (leaf) return { desk: leaf, tally };
  const index = await tx.objectStore(IMPORTS).get(sessionId);
  const at = index ? positionIn(index, leafId) : -1;
  if (!index || at < 0) throw new StorageFailure(`The entry ${leafId} is not in the stored journal of session ${sessionId} (was the database cleared in another tab?).`);
  return { desk: deskIndexAt(index, at), tally };
}

/**
 * The records for appended entries: the first hangs off the leaf, each later one off the leaf,
 * an earlier entry of the batch, or nothing (a new root). Each record's desk index comes from its
 * parent's by the one derivation (`deskIndexOf`), its tally from the session's last record.
 */
function draftAppends(sessionId: SessionId, leafId: EntryId | null, leaf: DeskIndex, tally: Tally, entries: readonly JournalEntry[]): NewEntryRecord[] {
  const first = entries[0];
  if (first && first.parentId !== leafId) {
    throw new StorageFailure(`Entry ${first.id} hangs off ${first.parentId ?? '(none)'}, not off the leaf ${leafId ?? '(none)'}: nothing was appended.`);
  }
  const known = new Map<string, DeskIndex>();
  if (leafId !== null) known.set(leafId, leaf);
  let running = tally;
  return entries.map((entry) => {
    const parent = entry.parentId === null ? ROOT_DESK_INDEX : known.get(entry.parentId);
    if (!parent) throw new StorageFailure(`Entry ${entry.id} hangs off ${entry.parentId ?? '(none)'}, which is neither the leaf nor an entry of this batch: nothing was appended.`);
    const desk = deskIndexOf(entry, parent);
    known.set(entry.id, desk);
    running = nextTally(running, entry);
    return entryRecord(sessionId, entry, entry.parentId, desk, running);
  });
}
