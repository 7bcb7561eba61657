import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';
import type { EntryId, SessionId } from '$domain/ids';
import type { JournalEntry, SessionHeader } from '$domain/journal/entry';
import { SessionJournal } from '$domain/journal/journal';
import type { DeskIndex, DeskLinkState } from '$domain/reconstruct';
import { withHostIndexedDB } from './ownGlobals';
import { layoutOf, stringifiedSegment, type CreatedLayout, type ImportIndexRecord, type SegmentRecord, type Tally } from './segments';

/**
 * The database layout and its upgrades (docs/persisted-format.md). CHANGING ANY NAME HERE LOSES
 * DATA: an existing database would no longer be found or read. A new layout needs a new
 * DB_VERSION and an upgrade step from every older version, tested on a database that version wrote.
 */
export const DB_NAME = 'seed-desk-playground';
export const DB_VERSION = 3;
export const SESSIONS = 'sessions';
export const ENTRIES = 'entries';
export const SEGMENTS = 'segments';
export const IMPORTS = 'imports';
export const META = 'meta';
export const BY_ID = 'byId';
export const BY_PARENT = 'byParent';
export const BY_SESSION = 'bySession';
export const LAST_SESSION_KEY = 'lastSession';
/** IndexedDB keys cannot be null, so a root's parent key is this string. */
export const ROOT_PARENT = '';

export interface SessionRecord {
  readonly id: SessionId;
  readonly header: SessionHeader;
  readonly createdAt: string;
  /**
   * True when the real host writes the session's file as it makes it (New session, a fork, an
   * import). Absent (older records, the page's first session): its file waits for the first
   * assistant message. Added after version 3 without a new version: a reader treats absent as false.
   */
  readonly materialized?: boolean;
}

/** What a new session's record says beyond its header. */
export type SessionMarks = Pick<SessionRecord, 'materialized'>;

/**
 * One entry appended after its session was created (and each session's last created entry), with
 * the derived desk index and the running tally, both rebuildable from the entries alone: the
 * session's last record says how many entries it holds and what state its last branch is in.
 * Records never change once written.
 */
export interface EntryRecord {
  readonly sessionId: SessionId;
  /** Append order across the database (autoIncrement); within a session it is the file order. */
  readonly seq: number;
  readonly id: EntryId;
  readonly parentKey: string;
  readonly entry: JournalEntry;
  readonly deskHead: EntryId | null;
  readonly deskLink: DeskLinkState;
  readonly position: number;
  readonly deskEntries: number;
  readonly hasAssistant: boolean;
}

export type NewEntryRecord = Omit<EntryRecord, 'seq'>;

export interface PlaygroundDB extends DBSchema {
  sessions: { key: string; value: SessionRecord };
  entries: {
    key: number;
    value: EntryRecord;
    indexes: { byId: [string, string]; byParent: [string, string]; bySession: [string, number] };
  };
  segments: { key: [string, number]; value: SegmentRecord };
  imports: { key: string; value: ImportIndexRecord };
  meta: { key: string; value: string };
}

export type StoreName = StoreNames<PlaygroundDB>;
/** A transaction that may write: an ordinary readwrite one, or the upgrade's. */
export type WritingTx = IDBPTransaction<PlaygroundDB, StoreName[], 'readwrite' | 'versionchange'>;

export function entryRecord(sessionId: SessionId, entry: JournalEntry, parentId: EntryId | null, desk: DeskIndex, tally: Tally): NewEntryRecord {
  return {
    sessionId,
    id: entry.id,
    parentKey: parentId ?? ROOT_PARENT,
    entry,
    deskHead: desk.deskHead,
    deskLink: desk.deskLink,
    position: tally.position,
    deskEntries: tally.deskEntries,
    hasAssistant: tally.hasAssistant,
  };
}

export function sessionRange(sessionId: SessionId): IDBKeyRange {
  return IDBKeyRange.bound([sessionId, 0], [sessionId, Number.MAX_SAFE_INTEGER]);
}

/**
 * A session with the entries it was created with, in its layout: the session record (an id
 * already stored fails the transaction), the segments (`onPrepared` and `onStored` count entries
 * as each segment's Blob is made and handed to the database, and as it is stored), the index, and the
 * last entry's record.
 * Used by createSession and by the v1 migration, so both write the same layout.
 */
export async function writeCreated(
  tx: WritingTx,
  session: SessionRecord,
  layout: CreatedLayout,
  progress: { readonly onPrepared?: (entries: number) => void; readonly onStored?: (entries: number) => void } = {},
): Promise<EntryRecord | null> {
  const sessionId = session.id;
  const added = tx.objectStore(SESSIONS).add(session).catch((error: unknown) => {
    throw error instanceof DOMException && error.name === 'ConstraintError' ? new SessionExists(sessionId) : error;
  });
  const writes: Promise<unknown>[] = [added];
  const segments = tx.objectStore(SEGMENTS);
  let index = 0;
  for (const segment of layout.segments) {
    const count = segment.count;
    writes.push(segments.put({ sessionId, index: index++, first: segment.first, count, jsonl: segment.jsonl }).then(() => progress.onStored?.(count)));
    progress.onPrepared?.(count);
  }
  if (layout.index) writes.push(tx.objectStore(IMPORTS).put({ sessionId, ...layout.index }));
  const last = layout.last;
  const draft = last ? entryRecord(sessionId, last.entry, last.parentId, last.desk, last.tally) : null;
  const seq = draft ? tx.objectStore(ENTRIES).add(draft as EntryRecord) : Promise.resolve(0);
  const [stored] = await Promise.all([seq, ...writes]);
  return draft ? { ...draft, seq: stored } : null;
}

/** createSession of an id that is already stored. */
export class SessionExists extends Error {
  constructor(readonly sessionId: SessionId) {
    super(`A session with id ${sessionId} already exists.`);
  }
}

/** A v1 entry record: one per entry, no tally (docs/persisted-format.md, "Version 1"). */
interface V1EntryRecord {
  readonly sessionId: SessionId;
  readonly seq: number;
  readonly entry: JournalEntry;
}

/**
 * v1 → v2: every session is rewritten in the created layout from its v1 records in append order
 * (the derived index is derived again, by the one derivation). Records of a session that no
 * longer exists cannot be reached by anything and are dropped.
 */
async function migrateFromV1(tx: IDBPTransaction<PlaygroundDB, StoreName[], 'versionchange'>): Promise<void> {
  const entries = tx.objectStore(ENTRIES);
  const [sessions, records] = await Promise.all([tx.objectStore(SESSIONS).getAll(), entries.getAll() as Promise<unknown[]> as Promise<V1EntryRecord[]>]);
  const bySession = new Map<string, JournalEntry[]>();
  for (const record of records) {
    const list = bySession.get(record.sessionId);
    if (list) list.push(record.entry);
    else bySession.set(record.sessionId, [record.entry]);
  }
  await Promise.all([tx.objectStore(SESSIONS).clear(), entries.clear()]);
  for (const session of sessions) {
    const journal = SessionJournal.fromEntries(session.header, bySession.get(session.id) ?? []);
    await writeCreated(tx, session, layoutOf(journal));
  }
}

/** A v2 segment: the entries themselves, as IndexedDB cloned them (docs/persisted-format.md, "Version 2"). */
interface V2SegmentRecord {
  readonly sessionId: SessionId;
  readonly index: number;
  readonly first: number;
  readonly entries: readonly JournalEntry[];
}

/**
 * v2 → v3: each segment's entries become its JSON lines, as a Blob. Nothing else changed: the
 * keys, the index record and the entry records stay as they are.
 */
async function segmentsToText(tx: IDBPTransaction<PlaygroundDB, StoreName[], 'versionchange'>): Promise<void> {
  const segments = tx.objectStore(SEGMENTS);
  let cursor = await segments.openCursor();
  while (cursor) {
    const old = cursor.value as unknown as V2SegmentRecord | SegmentRecord;
    // Without `entries` it is already v3: written by the v1 migration in this same upgrade.
    if ('entries' in old) await cursor.update({ sessionId: old.sessionId, index: old.index, first: old.first, count: old.entries.length, jsonl: stringifiedSegment(old.entries, old.first) });
    cursor = await cursor.continue();
  }
}

export interface ConnectionEvents {
  readonly blocking: () => void;
  readonly terminated: () => void;
  readonly blocked: () => void;
}

export function connect(name: string, events: ConnectionEvents): Promise<IDBPDatabase<PlaygroundDB>> {
  return withHostIndexedDB(() => openDB<PlaygroundDB>(name, DB_VERSION, {
    upgrade(database, oldVersion, _newVersion, tx) {
      if (oldVersion < 1) {
        database.createObjectStore(SESSIONS, { keyPath: 'id' });
        const entries = database.createObjectStore(ENTRIES, { keyPath: 'seq', autoIncrement: true });
        entries.createIndex(BY_ID, ['sessionId', 'id'], { unique: true });
        entries.createIndex(BY_PARENT, ['sessionId', 'parentKey']);
        entries.createIndex(BY_SESSION, ['sessionId', 'seq']);
        database.createObjectStore(META);
      }
      if (oldVersion < 2) {
        database.createObjectStore(SEGMENTS, { keyPath: ['sessionId', 'index'] });
        database.createObjectStore(IMPORTS, { keyPath: 'sessionId' });
        if (oldVersion === 1) {
          // A migration that fails aborts the upgrade: the v1 data stays as it was and open() fails.
          migrateFromV1(tx).catch(() => tx.abort());
        }
      }
      // A v1 database is migrated straight into the v3 layout above (writeCreated writes Blobs).
      if (oldVersion === 2) {
        // As for v1: a failure aborts the upgrade and leaves the v2 data as it was.
        segmentsToText(tx).catch(() => tx.abort());
      }
    },
    blocking: events.blocking,
    terminated: events.terminated,
    blocked: events.blocked,
  }));
}
