import type { IdSource, SessionId } from '$domain/ids';
import { sessionHeader } from '$domain/journal/entry';
import { SessionJournal } from '$domain/journal/journal';
import type { JournalStore } from './store';

/** Opening and creating sessions: how a stored session becomes the journal the host works on. */

export async function loadJournal(store: JournalStore, sessionId: SessionId): Promise<SessionJournal | null> {
  const session = await store.getSession(sessionId);
  if (!session) return null;
  const records = await store.loadEntries(sessionId);
  return SessionJournal.fromEntries(session.header, records.map((record) => record.entry));
}

export async function createSession(store: JournalStore, ids: IdSource): Promise<SessionJournal> {
  const header = sessionHeader(ids.sessionId() as SessionId, ids.now(), '/playground');
  await store.createSession(header);
  return SessionJournal.empty(header);
}

