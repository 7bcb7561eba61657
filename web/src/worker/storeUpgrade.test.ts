import 'fake-indexeddb/auto';
/**
 * The upgrades, each on a database written in an older layout (docs/persisted-format.md): v1 → v3
 * ("Version 1": one record per entry in `entries`, sessions interleaved in append order) and
 * v2 → v3 ("Version 2": segments holding the entries themselves, as IndexedDB cloned them).
 */
import { describe, expect, it } from 'vitest';
import { asEntryId, asSessionId, type SessionId } from '$domain/ids';
import { assistantMessageEntry, customEntry, sessionHeader, userMessageEntry, type JournalEntry } from '$domain/journal/entry';
import { SessionJournal } from '$domain/journal/journal';
import { SEED_DESK_CUSTOM_TYPE } from '$domain/snapshot';
import { freshDatabases, totalStoredEntries } from './databases.testkit';
import { layoutOf } from './segments';
import { expectDerivedFactsMatch, readRaw } from './storeRaw.testkit';
import { storedChildren, storedEntry } from './storeReads.testkit';

const TIME = '2026-05-01T12:00:00.000Z';
const A = asSessionId('0a000000-0000-4000-8000-000000000001');
const B = asSessionId('0b000000-0000-4000-8000-000000000002');
const EMPTY = asSessionId('0c000000-0000-4000-8000-000000000003');
const GONE = asSessionId('0d000000-0000-4000-8000-000000000004');
const place = (id: string, parentId: string | null) => ({ id: asEntryId(id), parentId: parentId === null ? null : asEntryId(parentId), timestamp: TIME });
const msg = (id: string, parentId: string | null): JournalEntry => userMessageEntry(`message ${id}`, place(id, parentId));
const desk = (id: string, parentId: string | null, data: unknown): JournalEntry => customEntry(SEED_DESK_CUSTOM_TYPE, data, place(id, parentId));
const basil = (count: number) => ({ version: 1, agentEnabled: true, quantities: { 'basil-genovese': count } });

const { openStore, nextName } = freshDatabases('store-upgrade');

const SESSION_A = [msg('a0000001', null), desk('a0000002', 'a0000001', basil(2)), msg('a0000003', 'a0000002'), desk('a0000004', 'a0000001', { version: 9 }), msg('a0000005', 'a0000004'), msg('a0000006', 'a0000003')];
const SESSION_B = [msg('b0000001', null), assistantMessageEntry([{ type: 'text', text: 'hello' }], place('b0000002', 'b0000001'))];

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

/** The stores and indexes DB_VERSION 1 created, exactly as it named them. */
function createV1Stores(db: IDBDatabase): void {
  db.createObjectStore('sessions', { keyPath: 'id' });
  const entries = db.createObjectStore('entries', { keyPath: 'seq', autoIncrement: true });
  entries.createIndex('byId', ['sessionId', 'id'], { unique: true });
  entries.createIndex('byParent', ['sessionId', 'parentKey']);
  entries.createIndex('bySession', ['sessionId', 'seq']);
  db.createObjectStore('meta');
}

function completed(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
}

/** Writes `name` exactly as DB_VERSION 1 did: its schema, its record shape, appends interleaved. */
async function writeV1(name: string): Promise<void> {
  const open = indexedDB.open(name, 1);
  open.onupgradeneeded = () => createV1Stores(open.result);
  const db = await request(open);
  const tx = db.transaction(['sessions', 'entries', 'meta'], 'readwrite');
  const sessions = tx.objectStore('sessions');
  for (const [id, minute] of [[A, 1], [B, 2], [EMPTY, 3]] as const) {
    sessions.add({ id, header: sessionHeader(id, TIME, '/v1'), createdAt: `2026-05-01T12:0${minute}:00.000Z` });
  }
  const journals = new Map<SessionId, SessionJournal>([
    [A, SessionJournal.fromEntries(sessionHeader(A, TIME, '/v1'), SESSION_A)],
    [B, SessionJournal.fromEntries(sessionHeader(B, TIME, '/v1'), SESSION_B)],
    [GONE, SessionJournal.fromEntries(sessionHeader(GONE, TIME, '/v1'), [msg('g0000001', null)])],
  ]);
  // Append order across sessions, as two tabs would have left it.
  const order: [SessionId, JournalEntry][] = [[A, SESSION_A[0]!], [B, SESSION_B[0]!], [A, SESSION_A[1]!], [GONE, msg('g0000001', null)], [A, SESSION_A[2]!], [B, SESSION_B[1]!], [A, SESSION_A[3]!], [A, SESSION_A[4]!], [A, SESSION_A[5]!]];
  for (const [sessionId, entry] of order) {
    const state = journals.get(sessionId)!.state(entry.id);
    tx.objectStore('entries').add({
      sessionId,
      id: entry.id,
      parentKey: entry.parentId ?? '',
      entry,
      deskHead: state.deskHead,
      deskLink: state.ok ? { ok: true, snapshot: state.snapshot } : { ok: false, corruptEntryId: state.corruptEntryId, problem: state.problem },
    });
  }
  tx.objectStore('meta').put(A, 'lastSession');
  await completed(tx);
  db.close();
}

describe('JournalStore on a database written by v1', () => {
  it('migrates every session: same sessions, entries in the same order, a rebuilt index, the head, and writes go on', async () => {
    const name = nextName();
    await writeV1(name);
    const store = await openStore(name);

    expect((await store.listSessions()).map((session) => [session.id, session.createdAt])).toEqual([
      [A, '2026-05-01T12:01:00.000Z'],
      [B, '2026-05-01T12:02:00.000Z'],
      [EMPTY, '2026-05-01T12:03:00.000Z'],
    ]);
    expect(await store.lastSessionId()).toBe(A);
    expect(await store.loadJournalEntries(A)).toEqual(SESSION_A);
    expect(await store.loadJournalEntries(B)).toEqual(SESSION_B);
    expect(await store.loadJournalEntries(EMPTY)).toEqual([]);
    // The records of a session that no longer exists are dropped: nothing could reach them.
    expect(await totalStoredEntries(name)).toBe(SESSION_A.length + SESSION_B.length);

    const journalA = SessionJournal.fromEntries(sessionHeader(A, TIME, '/v1'), SESSION_A);
    expectDerivedFactsMatch(await readRaw(name, A), journalA);
    expectDerivedFactsMatch(await readRaw(name, B), SessionJournal.fromEntries(sessionHeader(B, TIME, '/v1'), SESSION_B));
    expect(await store.loadHead(A)).toMatchObject({ entryCount: 6, seedDeskEntryCount: 2, lastEntry: SESSION_A[5], lastState: journalA.state(asEntryId('a0000006')), hasAssistantMessage: false });
    expect(await store.loadHead(B)).toMatchObject({ entryCount: 2, hasAssistantMessage: true, materialized: false });
    expect(await store.loadHead(EMPTY)).toMatchObject({ entryCount: 0, lastEntry: null });
    expect((await storedChildren(store, A, asEntryId('a0000001'))).map((child) => child.id)).toEqual(['a0000002', 'a0000004']);

    // A commit on a migrated leaf decides on its migrated state, and the tally goes on.
    const outcome = await store.commitChecked(A, asEntryId('a0000005'), (state) => (state.ok ? { append: true, entries: [msg('a0000007', 'a0000005')] } : { append: false, reason: state.corruptEntryId }));
    expect(outcome).toEqual({ kind: 'declined', reason: 'a0000004' });
    await store.append(A, asEntryId('a0000003'), [desk('a0000008', 'a0000003', basil(3))]);
    expect(await store.loadHead(A)).toMatchObject({ entryCount: 7, seedDeskEntryCount: 3, lastState: { ok: true, snapshot: { quantities: { 'basil-genovese': 3 } } } });
  });

  it('a v1 database that a v2 store has opened opens again without migrating twice', async () => {
    const name = nextName();
    await writeV1(name);
    (await openStore(name)).close();
    const again = await openStore(name);
    expect(await again.loadJournalEntries(A)).toEqual(SESSION_A);
    expect(await totalStoredEntries(name)).toBe(SESSION_A.length + SESSION_B.length);
  });
});

/** Writes `name` exactly as DB_VERSION 2 did: its schema, segments of cloned entries, the index record, the last entry's record. */
async function writeV2(name: string, sessionId: SessionId, entries: readonly JournalEntry[], perSegment: number): Promise<void> {
  const open = indexedDB.open(name, 2);
  open.onupgradeneeded = () => {
    // v2 kept v1's stores and added the segments and the index records.
    const db = open.result;
    createV1Stores(db);
    db.createObjectStore('segments', { keyPath: ['sessionId', 'index'] });
    db.createObjectStore('imports', { keyPath: 'sessionId' });
  };
  const db = await request(open);
  const tx = db.transaction(['sessions', 'entries', 'segments', 'imports', 'meta'], 'readwrite');
  const header = sessionHeader(sessionId, TIME, '/v2');
  tx.objectStore('sessions').add({ id: sessionId, header, createdAt: TIME });
  // The derived facts are the same derivation in v2 and v3; only the segments' value changed.
  const layout = layoutOf(SessionJournal.fromEntries(header, entries));
  const created = entries.slice(0, -1);
  for (let first = 0, index = 0; first < created.length; first += perSegment, index++) {
    tx.objectStore('segments').put({ sessionId, index, first, entries: created.slice(first, first + perSegment) });
  }
  tx.objectStore('imports').put({ sessionId, ...layout.index });
  const last = layout.last!;
  tx.objectStore('entries').add({ sessionId, id: last.entry.id, parentKey: last.parentId ?? '', entry: last.entry, deskHead: last.desk.deskHead, deskLink: last.desk.deskLink, ...last.tally });
  tx.objectStore('meta').put(sessionId, 'lastSession');
  await completed(tx);
  db.close();
}

describe('JournalStore on a database written by v2', () => {
  // An own "__proto__" key (JSON.parse makes one) must survive the conversion as data.
  const odd = JSON.parse('{"type":"message","id":"a0000007","parentId":"a0000006","timestamp":"2026-05-01T12:00:00.000Z","__proto__":{"polluted":true},"message":{"role":"user","content":"ça"}}') as JournalEntry;
  const ENTRIES_V2 = [...SESSION_A, odd, msg('a0000008', 'a0000007')];

  it('turns every segment into JSON lines: the same entries in the same order, the same derived facts, and writes go on', async () => {
    const name = nextName();
    await writeV2(name, A, ENTRIES_V2, 3);
    const store = await openStore(name);

    expect(await store.loadJournalEntries(A)).toEqual(ENTRIES_V2);
    expect(Object.keys((await store.loadJournalEntries(A))[6]!)).toContain('__proto__');
    const raw = await readRaw(name, A);
    expect(raw.segments.map((segment) => [segment.first, segment.count, 'entries' in segment, segment.jsonl instanceof Blob])).toEqual([
      [0, 3, false, true],
      [3, 3, false, true],
      [6, 1, false, true],
    ]);
    const journal = SessionJournal.fromEntries(sessionHeader(A, TIME, '/v2'), ENTRIES_V2);
    expectDerivedFactsMatch(raw, journal);
    expect(await storedEntry(store, A, 'a0000007')).toEqual({ id: 'a0000007', entry: odd });
    expect((await storedChildren(store, A, asEntryId('a0000001'))).map((child) => child.id)).toEqual(['a0000002', 'a0000004']);
    const outcome = await store.commitChecked(A, asEntryId('a0000003'), (state) => (state.ok ? { append: true, entries: [desk('a0000009', 'a0000003', basil(4))] } : { append: false, reason: state.corruptEntryId }));
    expect(outcome.kind).toBe('appended');
    expect(await store.loadHead(A)).toMatchObject({ entryCount: ENTRIES_V2.length + 1, lastState: { ok: true, snapshot: { quantities: { 'basil-genovese': 4 } } } });
  });
});
