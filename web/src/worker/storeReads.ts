import type { IDBPDatabase } from 'idb';
import type { SessionId } from '$domain/ids';
import type { JournalEntry, SessionHeader } from '$domain/journal/entry';
import { ROOT_DESK_INDEX, stateOfIndex, type BranchState } from '$domain/reconstruct';
import { entriesOf } from './segments';
import { BY_SESSION, ENTRIES, LAST_SESSION_KEY, META, SEGMENTS, SESSIONS, sessionRange, type PlaygroundDB, type SessionRecord } from './storeSchema';

/**
 * The reads JournalStore offers everyone (its methods of the same names, documented there), each
 * on the connection it is given: reads go straight to IndexedDB, outside the writes' queue and lease.
 * The reads only tests need are in storeReads.testkit.ts.
 */

type Connection = IDBPDatabase<PlaygroundDB>;

/** What a reopen needs before the whole journal: read from two records, whatever the session's size. */
export interface SessionHead {
  readonly header: SessionHeader;
  readonly entryCount: number;
  readonly seedDeskEntryCount: number;
  /** The last appended entry (where a reopen puts the leaf), or null in an empty session. */
  readonly lastEntry: JournalEntry | null;
  /** The state of the branch ending at `lastEntry` (the empty desk at `<sid>:root` when there is none). */
  readonly lastState: BranchState;
  readonly hasAssistantMessage: boolean;
  /** The session record's `materialized`: the real host wrote its file when it made it. */
  readonly materialized: boolean;
}

export async function listSessions(db: Connection): Promise<SessionRecord[]> {
  const all = await db.getAll(SESSIONS);
  return all.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

export async function countEntries(db: Connection, sessionId: SessionId): Promise<number> {
  const last = await db.transaction(ENTRIES).store.index(BY_SESSION).openCursor(sessionRange(sessionId), 'prev');
  return last ? last.value.position + 1 : 0;
}

export async function getSession(db: Connection, id: SessionId): Promise<SessionRecord | undefined> {
  return db.get(SESSIONS, id);
}

export async function lastSessionId(db: Connection): Promise<SessionId | undefined> {
  return (await db.get(META, LAST_SESSION_KEY)) as SessionId | undefined;
}

export async function getMeta(db: Connection, key: string): Promise<string | undefined> {
  return db.get(META, key);
}

export async function loadHead(db: Connection, sessionId: SessionId): Promise<SessionHead | null> {
  const tx = db.transaction([SESSIONS, ENTRIES]);
  const [session, last] = await Promise.all([tx.objectStore(SESSIONS).get(sessionId), tx.objectStore(ENTRIES).index(BY_SESSION).openCursor(sessionRange(sessionId), 'prev')]);
  if (!session) return null;
  const record = last?.value;
  return {
    header: session.header,
    entryCount: record ? record.position + 1 : 0,
    seedDeskEntryCount: record?.deskEntries ?? 0,
    lastEntry: record?.entry ?? null,
    lastState: stateOfIndex(sessionId, record ?? ROOT_DESK_INDEX),
    hasAssistantMessage: record?.hasAssistant ?? false,
    materialized: session.materialized === true,
  };
}

export async function loadJournalEntries(db: Connection, sessionId: SessionId): Promise<JournalEntry[]> {
  const tx = db.transaction([SEGMENTS, ENTRIES]);
  const [segments, records] = await Promise.all([tx.objectStore(SEGMENTS).getAll(sessionRange(sessionId)), tx.objectStore(ENTRIES).index(BY_SESSION).getAll(sessionRange(sessionId))]);
  const entries: JournalEntry[] = [];
  // Every segment's Blob is read at once; they are parsed in order.
  for (const segment of await Promise.all(segments.map(entriesOf))) for (const entry of segment) entries.push(entry);
  for (const record of records) entries.push(record.entry);
  return entries;
}
