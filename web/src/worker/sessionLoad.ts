import type { IdSource, SessionId } from '$domain/ids';
import { sessionHeader, type SessionHeader } from '$domain/journal/entry';
import { SessionJournal } from '$domain/journal/journal';
import type { SegmentSource } from './segments';
import type { JournalStore, SessionHead } from './store';

/**
 * Opening and creating sessions: how a stored session becomes the journal the host works on.
 * A reopen can answer from the head first (`openSessionHead`: the desk, the revision and the
 * counts, from two records whatever the session's size) and load the whole journal after it.
 */

export type { SessionHead } from './store';

/**
 * Sessions whose file the real host writes as it makes them (New session, a fork, an import: the
 * record's `materialized`). Keyed by header, which a journal rebuilt for the same session (a
 * failed write taken back) keeps.
 */
const materializedHeaders = new WeakSet<SessionHeader>();

/** Whether the real host wrote this session's file when it made it, whatever the session holds since. */
export function wasMaterialized(journal: SessionJournal): boolean {
  return materializedHeaders.has(journal.header);
}

/** The head of a stored session, or null when it is not stored. */
export function openSessionHead(store: JournalStore, sessionId: SessionId): Promise<SessionHead | null> {
  return store.loadHead(sessionId);
}

/** The whole journal of a stored session, or null when it is not stored; the leaf on the last entry. */
export async function loadJournal(store: JournalStore, sessionId: SessionId): Promise<SessionJournal | null> {
  const [session, entries] = await Promise.all([store.getSession(sessionId), store.loadJournalEntries(sessionId)]);
  if (!session) return null;
  const journal = SessionJournal.fromEntries(session.header, entries);
  if (session.materialized === true) materializedHeaders.add(journal.header);
  return journal;
}

/**
 * A new empty session. `materialized`: made by New session, whose file the real host writes
 * before `newSession()` returns; the page's first session is not (`SessionManager.create` keeps
 * it in memory until its first assistant message).
 */
export async function createSession(store: JournalStore, ids: IdSource, { materialized = false } = {}): Promise<SessionJournal> {
  const header = sessionHeader(ids.sessionId() as SessionId, ids.now(), '/playground');
  await store.createSession(header, [], undefined, materialized ? { materialized } : {});
  if (materialized) materializedHeaders.add(header);
  return SessionJournal.empty(header);
}

/** A fork or an import, stored with its first entries: the real host writes such a file at once. */
export async function storeMaterialized(store: JournalStore, journal: SessionJournal, onProgress?: (done: number, total: number) => void, source?: SegmentSource): Promise<void> {
  await store.createSessionFrom(journal, onProgress, source, { materialized: true });
  materializedHeaders.add(journal.header);
}
