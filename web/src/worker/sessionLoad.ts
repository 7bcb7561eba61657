import type { IdSource, SessionId } from '$domain/ids';
import { sessionHeader } from '$domain/journal/entry';
import { SessionJournal } from '$domain/journal/journal';
import type { JournalStore, SessionHead } from './store';

/**
 * Opening and creating sessions: how a stored session becomes the journal the host works on.
 * A reopen can answer from the head first (`openSessionHead`: the desk, the revision and the
 * counts, from two records whatever the session's size) and load the whole journal after it.
 */

export type { SessionHead } from './store';

/** The head of a stored session, or null when it is not stored. */
export function openSessionHead(store: JournalStore, sessionId: SessionId): Promise<SessionHead | null> {
  return store.loadHead(sessionId);
}

/** The whole journal of a stored session, or null when it is not stored; the leaf on the last entry. */
export async function loadJournal(store: JournalStore, sessionId: SessionId): Promise<SessionJournal | null> {
  const [session, entries] = await Promise.all([store.getSession(sessionId), store.loadJournalEntries(sessionId)]);
  if (!session) return null;
  return SessionJournal.fromEntries(session.header, entries);
}

export async function createSession(store: JournalStore, ids: IdSource): Promise<SessionJournal> {
  const header = sessionHeader(ids.sessionId() as SessionId, ids.now(), '/playground');
  await store.createSession(header);
  return SessionJournal.empty(header);
}
