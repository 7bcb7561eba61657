import type { EntryId, SessionId } from '$domain/ids';
import type { JournalEntry } from '$domain/journal/entry';
import { SessionJournal } from '$domain/journal/journal';
import type { JournalStore } from './store';

/**
 * Reads of a stored session that only tests need, made from what the store offers everyone
 * (`loadJournalEntries`, the session record) and the journal's one derivation of the tree.
 * Each reads the whole session: none of them is on a hot path.
 */

/** An entry as read back: its id and the entry exactly as stored (and as exported). */
export interface StoredEntry {
  readonly id: EntryId;
  readonly entry: JournalEntry;
}

const stored = (entry: JournalEntry): StoredEntry => ({ id: entry.id, entry });

/** Every entry of a session in append order, with its id; [] when the session is not stored. */
export async function storedEntries(store: JournalStore, sessionId: SessionId): Promise<StoredEntry[]> {
  return (await store.loadJournalEntries(sessionId)).map(stored);
}

/**
 * One entry by id, or undefined. The store keeps an id once per session; should an appended
 * record ever repeat the id of an entry the session was created with, the record (the later
 * one) is the one read, as the store's own lookup by id did.
 */
export async function storedEntry(store: JournalStore, sessionId: SessionId, id: string): Promise<StoredEntry | undefined> {
  const entry = (await store.loadJournalEntries(sessionId)).findLast((candidate) => candidate.id === id);
  return entry ? stored(entry) : undefined;
}

/**
 * Children in append order; `null` gives the roots. The tree is the one every walk sees, the
 * journal rebuilt from the stored entries: an orphan is a root, a parent on a later line is linked.
 * [] when the session is not stored.
 */
export async function storedChildren(store: JournalStore, sessionId: SessionId, id: EntryId | null): Promise<StoredEntry[]> {
  const [session, entries] = await Promise.all([store.getSession(sessionId), store.loadJournalEntries(sessionId)]);
  if (!session) return [];
  const journal = SessionJournal.fromEntries(session.header, entries);
  return journal.childrenOf(id).map((child) => stored(journal.get(child)!));
}
