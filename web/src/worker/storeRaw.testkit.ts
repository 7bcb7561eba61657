import { expect } from 'vitest';
import type { SessionId } from '$domain/ids';
import { isSeedDeskEntry, messageRole } from '$domain/journal/entry';
import type { SessionJournal } from '$domain/journal/journal';
import { stateOfIndex } from '$domain/reconstruct';
import { deskIndexAt, type ImportIndexRecord, type SegmentRecord } from './segments';
import { BY_SESSION, ENTRIES, IMPORTS, SEGMENTS, sessionRange, type EntryRecord } from './storeSchema';

/** What the database `name` holds for one session, read on a second connection, bypassing the store. */
export interface RawSession {
  readonly records: EntryRecord[];
  readonly segments: SegmentRecord[];
  readonly index: ImportIndexRecord | undefined;
}

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

export async function readRaw(name: string, sessionId: SessionId): Promise<RawSession> {
  const db = await request(indexedDB.open(name));
  try {
    const tx = db.transaction([ENTRIES, SEGMENTS, IMPORTS], 'readonly');
    const [records, segments, index] = await Promise.all([
      request(tx.objectStore(ENTRIES).index(BY_SESSION).getAll(sessionRange(sessionId)) as IDBRequest<EntryRecord[]>),
      request(tx.objectStore(SEGMENTS).getAll(sessionRange(sessionId)) as IDBRequest<SegmentRecord[]>),
      request(tx.objectStore(IMPORTS).get(sessionId) as IDBRequest<ImportIndexRecord | undefined>),
    ]);
    return { records, segments, index };
  } finally {
    db.close();
  }
}

/**
 * The oracle: every derived fact on disk (each record's desk index and tally, the import index's
 * parents and desk index) equals what `journal`, rebuilt from the entries alone, says.
 */
export function expectDerivedFactsMatch(raw: RawSession, journal: SessionJournal): void {
  const sid = journal.sessionId;
  const entries = journal.entries();
  const position = new Map(entries.map((entry, at) => [entry.id as string, at]));
  let deskEntries = 0;
  let hasAssistant = false;
  const tallies = entries.map((entry) => {
    if (isSeedDeskEntry(entry)) deskEntries++;
    hasAssistant ||= messageRole(entry) === 'assistant';
    return { deskEntries, hasAssistant };
  });
  for (const record of raw.records) {
    const at = position.get(record.id);
    expect(at, `record ${record.id} is an entry of the journal`).toBeDefined();
    expect({ id: record.id, state: stateOfIndex(sid, record) }).toEqual({ id: record.id, state: journal.state(record.id) });
    expect({ id: record.id, parentKey: record.parentKey }).toEqual({ id: record.id, parentKey: journal.parentIdOf(record.id) ?? '' });
    expect({ id: record.id, position: record.position, deskEntries: record.deskEntries, hasAssistant: record.hasAssistant }).toEqual({ id: record.id, position: at, ...tallies[at ?? -1] });
  }
  const index = raw.index;
  if (!index) return;
  expect(index.ids).toEqual(entries.slice(0, index.ids.length).map((entry) => entry.id));
  index.ids.forEach((id, at) => {
    const parent = journal.parentIdOf(entries[at]!.id);
    expect({ id, parent: index.parents[at] }).toEqual({ id, parent: parent === null ? -1 : position.get(parent) });
    expect({ id, state: stateOfIndex(sid, deskIndexAt(index, at)) }).toEqual({ id, state: journal.state(entries[at]!.id) });
  });
}
