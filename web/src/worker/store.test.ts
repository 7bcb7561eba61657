import 'fake-indexeddb/auto';
/**
 * The IndexedDB journal store on fake-indexeddb. Every test opens its own database name, so the
 * tests share nothing; the stores are closed and the databases deleted after each test.
 *
 * The oracle at the end replays a seeded random tree of appends and checks that the stored
 * derived index (deskHead, deskLink) equals what the entries alone rebuild.
 * Replay a failure: STORE_FC_SEED=<seed> npx vitest run web/src/worker/store.test.ts
 */
import * as fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { asEntryId, asSessionId, type EntryId, type SessionId } from '$domain/ids';
import { customEntry, isSeedDeskEntry, sessionHeader, userMessageEntry, type JournalEntry } from '$domain/journal/entry';
import { SessionJournal } from '$domain/journal/journal';
import { branchStateFrom, ROOT_LINK, type BranchState } from '$domain/reconstruct';
import { SEED_DESK_CUSTOM_TYPE, type Snapshot } from '$domain/snapshot';
import { JournalStore, StorageFailure, type CheckedAppend, type EntryRecord } from './store';

const TIME = '2026-05-01T12:00:00.000Z';
const SID = asSessionId('5e55104a-0000-4000-8000-000000000001');
const OTHER_SID = asSessionId('5e55104a-0000-4000-8000-000000000002');

// ---------------------------------------------------------------- helpers

let dbCounter = 0;
const opened: { store: JournalStore; name: string }[] = [];

async function openStore(name = `store-test-${++dbCounter}`): Promise<JournalStore> {
  const store = await JournalStore.open(name);
  opened.push({ store, name });
  return store;
}

afterEach(async () => {
  const names = new Set(opened.map((o) => o.name));
  for (const { store } of opened.splice(0)) store.close();
  for (const name of names) await deleteDatabase(name);
});

function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
    request.onblocked = () => resolve();
  });
}

const header = (sid: SessionId = SID) => sessionHeader(sid, TIME, '/test');
const place = (id: string, parentId: string | null) => ({ id: asEntryId(id), parentId: parentId === null ? null : asEntryId(parentId), timestamp: TIME });
const msg = (id: string, parentId: string | null, text = `message ${id}`): JournalEntry => userMessageEntry(text, place(id, parentId));
const desk = (id: string, parentId: string | null, data: unknown): JournalEntry => customEntry(SEED_DESK_CUSTOM_TYPE, data, place(id, parentId));
const snap = (quantities: Snapshot['quantities'], agentEnabled = false): Snapshot => ({ version: 1, agentEnabled, quantities });
const CORRUPT = { version: 2, agentEnabled: false, quantities: {} };

/** A decide that records the state it was shown and declines (so nothing is written). */
function peek(): { decide: (state: BranchState) => CheckedAppend<string>; seen: BranchState[] } {
  const seen: BranchState[] = [];
  return { seen, decide: (state) => (seen.push(state), { append: false, reason: 'peek only' }) };
}

async function stateAt(store: JournalStore, sid: SessionId, leaf: string | null): Promise<BranchState> {
  const { decide, seen } = peek();
  const outcome = await store.commitChecked(sid, leaf === null ? null : asEntryId(leaf), decide);
  expect(outcome).toEqual({ kind: 'declined', reason: 'peek only' });
  expect(seen).toHaveLength(1);
  return seen[0]!;
}

const ids = (records: readonly EntryRecord[]) => records.map((record) => record.id);

/** A plain append whose leaf is the first entry's parent, as the host calls it. */
const put = (store: JournalStore, entries: readonly JournalEntry[], sid: SessionId = SID) => store.append(sid, entries[0]!.parentId, entries);

function expectIncreasing(values: readonly number[]): void {
  for (let i = 1; i < values.length; i++) expect(values[i]!, `seq at ${i}`).toBeGreaterThan(values[i - 1]!);
}

// ---------------------------------------------------------------- sessions and plain appends

describe('JournalStore: sessions and appends', () => {
  it('an entry whose parent is stored but is not the given leaf is refused or indexed under its real parent, never as a root', async () => {
    const store = await openStore();
    await store.createSession(header(), [msg('a0000001', null), desk('d0000001', 'a0000001', snap({ 'basil-genovese': 1 })), msg('b0000001', 'd0000001')]);
    // The caller names leaf b0000001, but the entry hangs off d0000001 (also stored).
    const result = await store
      .append(SID, asEntryId('b0000001'), [msg('c0000001', 'd0000001')])
      .then(() => 'stored', (error: unknown) => (error instanceof StorageFailure ? 'refused' : error));
    expect(['stored', 'refused']).toContain(result);
    const records = await store.loadEntries(SID);
    const journal = SessionJournal.fromEntries(header(), records.map((r) => r.entry));
    for (const record of records) {
      expect({ id: record.id, parentKey: record.parentKey, state: branchStateFrom(SID, record.deskHead, record.deskLink) }).toEqual({
        id: record.id,
        parentKey: record.entry.parentId ?? '',
        state: journal.state(record.id),
      });
    }
  });

  it('createSession stores the header with its first entries, and loadEntries returns them in append order', async () => {
    const store = await openStore();
    const created = await store.createSession(header(), [msg('a0000001', null), msg('a0000002', 'a0000001'), msg('a0000003', 'a0000002')]);
    expect(created).toMatchObject({ id: SID, header: header() });
    expect(await store.getSession(SID)).toMatchObject({ id: SID, header: header() });
    expect(await store.countEntries(SID)).toBe(3);
    const records = await store.loadEntries(SID);
    expect(ids(records)).toEqual(['a0000001', 'a0000002', 'a0000003']);
    expectIncreasing(records.map((record) => record.seq));
    expect(records.map((record) => record.parentKey)).toEqual(['', 'a0000001', 'a0000002']);
    expect(records[1]!.entry).toEqual(msg('a0000002', 'a0000001'));
    expect(await store.listSessions()).toHaveLength(1);
  });

  it('append keeps seq order across calls (past 10, numeric not lexical) and the byParent index finds children', async () => {
    const store = await openStore();
    await store.createSession(header());
    // A root with three children, one of which has a long chain under it.
    await put(store, [msg('r0000000', null)]);
    await put(store, [msg('c0000001', 'r0000000')]);
    await put(store, [msg('c0000002', 'r0000000')]);
    const chain: JournalEntry[] = [];
    let parent = 'c0000002';
    for (let i = 0; i < 9; i++) {
      const id = `d000000${i}`;
      chain.push(msg(id, parent));
      parent = id;
    }
    await put(store, chain);
    await put(store, [msg('c0000003', 'r0000000')]);
    const records = await store.loadEntries(SID);
    expectIncreasing(records.map((record) => record.seq));
    expect(ids(records)).toEqual(['r0000000', 'c0000001', 'c0000002', ...chain.map((e) => e.id), 'c0000003']);
    expect(await store.countEntries(SID)).toBe(13);

    expect(ids(await store.childrenOf(SID, asEntryId('r0000000')))).toEqual(['c0000001', 'c0000002', 'c0000003']);
    expect(ids(await store.childrenOf(SID, asEntryId('c0000002')))).toEqual(['d0000000']);
    expect(ids(await store.childrenOf(SID, asEntryId('c0000001')))).toEqual([]);
    expect(ids(await store.childrenOf(SID, null))).toEqual(['r0000000']);
    expect((await store.getEntry(SID, 'd0000004'))?.seq).toBe(records[7]!.seq);
  });

  it('keeps sessions apart: loadEntries, childrenOf and getEntry never see another session', async () => {
    const store = await openStore();
    await store.createSession(header(SID), [msg('a0000001', null)]);
    await store.createSession(header(OTHER_SID), [msg('a0000001', null), msg('b0000002', 'a0000001')]);
    expect(ids(await store.loadEntries(SID))).toEqual(['a0000001']);
    expect(ids(await store.loadEntries(OTHER_SID))).toEqual(['a0000001', 'b0000002']);
    expect(ids(await store.childrenOf(SID, asEntryId('a0000001')))).toEqual([]);
    expect(await store.getEntry(SID, 'b0000002')).toBeUndefined();
  });

  it('createSession of an existing id fails with StorageFailure and writes nothing', async () => {
    const store = await openStore();
    await store.createSession(header(), [msg('a0000001', null)]);
    const before = await store.getSession(SID);
    const beforeEntries = await store.loadEntries(SID);
    await expect(store.createSession(header(), [msg('b0000001', null), msg('b0000002', 'b0000001')])).rejects.toSatisfy(
      (error: unknown) => error instanceof StorageFailure && /already exists/.test(error.message),
    );
    expect(await store.loadEntries(SID)).toEqual(beforeEntries);
    expect(await store.getEntry(SID, 'b0000001')).toBeUndefined();
    expect(await store.getSession(SID)).toEqual(before);
    expect(await store.listSessions()).toHaveLength(1);
  });

  it('a multi-entry append that fails halfway (duplicate id in the batch) stores none of it', async () => {
    const store = await openStore();
    await store.createSession(header(), [msg('a0000001', null)]);
    const batch = [msg('b0000001', 'a0000001'), desk('b0000002', 'b0000001', snap({ 'basil-genovese': 1 })), msg('b0000001', 'b0000002')];
    await expect(put(store, batch)).rejects.toSatisfy(
      (error: unknown) => error instanceof StorageFailure && /already stored/.test(error.message),
    );
    expect(ids(await store.loadEntries(SID))).toEqual(['a0000001']);
    expect(await store.countEntries(SID)).toBe(1);
    expect(await store.getEntry(SID, 'b0000001')).toBeUndefined();
    expect(await store.getEntry(SID, 'b0000002')).toBeUndefined();
    expect(await store.childrenOf(SID, asEntryId('a0000001'))).toEqual([]);
    // The store is still usable afterwards.
    await put(store, [msg('c0000001', 'a0000001')]);
    expect(ids(await store.loadEntries(SID))).toEqual(['a0000001', 'c0000001']);
  });

  it('an entry id already stored in the session is refused, not overwritten', async () => {
    const store = await openStore();
    await store.createSession(header(), [msg('a0000001', null, 'original')]);
    await expect(put(store, [msg('a0000001', null, 'impostor')])).rejects.toBeInstanceOf(StorageFailure);
    const records = await store.loadEntries(SID);
    expect(records).toHaveLength(1);
    expect(records[0]!.entry).toEqual(msg('a0000001', null, 'original'));
  });

  it('createSession with a duplicate id among its first entries creates nothing, not even the session', async () => {
    const store = await openStore();
    await expect(store.createSession(header(), [msg('a0000001', null), msg('a0000001', null)])).rejects.toBeInstanceOf(StorageFailure);
    expect(await store.getSession(SID)).toBeUndefined();
    expect(await store.loadEntries(SID)).toEqual([]);
    expect(await store.listSessions()).toEqual([]);
  });

  it('append to a session that is not stored fails with StorageFailure', async () => {
    const store = await openStore();
    await expect(put(store, [msg('a0000001', null)])).rejects.toSatisfy(
      (error: unknown) => error instanceof StorageFailure && /not in the database/.test(error.message),
    );
    expect(await store.loadEntries(SID)).toEqual([]);
  });

  it('deleteSession removes the session and its entries, and leaves other sessions alone', async () => {
    const store = await openStore();
    await store.createSession(header(SID), [msg('a0000001', null), msg('a0000002', 'a0000001')]);
    await store.createSession(header(OTHER_SID), [msg('a0000001', null)]);
    await store.deleteSession(SID);
    expect(await store.getSession(SID)).toBeUndefined();
    expect(await store.loadEntries(SID)).toEqual([]);
    expect(await store.getEntry(SID, 'a0000001')).toBeUndefined();
    expect(await store.childrenOf(SID, null)).toEqual([]);
    expect(ids(await store.loadEntries(OTHER_SID))).toEqual(['a0000001']);
    expect((await store.listSessions()).map((s) => s.id)).toEqual([OTHER_SID]);
    // The id is free again.
    await store.createSession(header(SID), [msg('a0000009', null)]);
    expect(ids(await store.loadEntries(SID))).toEqual(['a0000009']);
  });

  it('persists across close() and a re-open of the same database name', async () => {
    const name = `store-test-persist-${++dbCounter}`;
    const first = await openStore(name);
    await first.createSession(header(), [msg('a0000001', null)]);
    await put(first, [desk('a0000002', 'a0000001', snap({ 'bean-scarlet': 2 }, true))]);
    await first.setLastSession(SID);
    const before = await first.loadEntries(SID);
    first.close();

    const second = await openStore(name);
    expect(await second.lastSessionId()).toBe(SID);
    expect(await second.getSession(SID)).toMatchObject({ id: SID, header: header() });
    expect(await second.countEntries(SID)).toBe(2);
    expect(await second.loadEntries(SID)).toEqual(before);
    const state = await stateAt(second, SID, 'a0000002');
    expect(state).toMatchObject({ ok: true, revision: `${SID}:a0000002`, snapshot: snap({ 'bean-scarlet': 2 }, true) });
  });
});

// ---------------------------------------------------------------- checked commits

describe('JournalStore: commitChecked', () => {
  it('appends exactly one entry when decide says append, as a child of the leaf', async () => {
    const store = await openStore();
    await store.createSession(header(), [msg('a0000001', null)]);
    const entry = desk('d0000001', 'a0000001', snap({ 'basil-genovese': 2 }));
    const outcome = await store.commitChecked(SID, asEntryId('a0000001'), () => ({ append: true, entries: [entry] }));
    expect(outcome.kind).toBe('appended');
    if (outcome.kind !== 'appended') return;
    expect(outcome.records).toHaveLength(1);
    expect(outcome.records[0]).toMatchObject({ id: 'd0000001', parentKey: 'a0000001', deskHead: 'd0000001', entry });
    const stored = await store.loadEntries(SID);
    expect(ids(stored)).toEqual(['a0000001', 'd0000001']);
    expect(stored[1]).toEqual(outcome.records[0]);
    expect(await store.countEntries(SID)).toBe(2);
  });

  it('appends nothing when decide declines, and hands back the reason', async () => {
    const store = await openStore();
    await store.createSession(header(), [msg('a0000001', null)]);
    const before = await store.loadEntries(SID);
    const outcome = await store.commitChecked(SID, asEntryId('a0000001'), () => ({ append: false, reason: { code: 'stale-revision' } }));
    expect(outcome).toEqual({ kind: 'declined', reason: { code: 'stale-revision' } });
    expect(await store.loadEntries(SID)).toEqual(before);
    expect(await store.countEntries(SID)).toBe(1);
  });

  it('shows decide the branch state: <sid>:root before any desk entry, then <sid>:<latest desk entry on the branch>', async () => {
    const store = await openStore();
    await store.createSession(header());
    // Empty session, null leaf.
    expect(await stateAt(store, SID, null)).toEqual({ ok: true, sessionId: SID, revision: `${SID}:root`, deskHead: null, snapshot: snap({}) });
    await put(store, [msg('m0000001', null)]);
    expect(await stateAt(store, SID, 'm0000001')).toMatchObject({ ok: true, revision: `${SID}:root`, deskHead: null, snapshot: snap({}) });

    // First desk entry through commitChecked itself.
    const first = snap({ 'basil-genovese': 2 });
    await store.commitChecked(SID, asEntryId('m0000001'), (state) => {
      expect(state.revision).toBe(`${SID}:root`);
      return { append: true, entries: [desk('d0000001', 'm0000001', first)] };
    });
    expect(await stateAt(store, SID, 'd0000001')).toEqual({ ok: true, sessionId: SID, revision: `${SID}:d0000001`, deskHead: 'd0000001', snapshot: first });

    // Conversation below it keeps the revision.
    await put(store, [msg('m0000002', 'd0000001'), msg('m0000003', 'm0000002')]);
    expect(await stateAt(store, SID, 'm0000003')).toMatchObject({ ok: true, revision: `${SID}:d0000001`, snapshot: first });

    // A second desk entry deeper down wins on its branch…
    const second = snap({ 'basil-genovese': 2, 'bean-scarlet': 1 }, true);
    await put(store, [desk('d0000002', 'm0000003', second), msg('m0000004', 'd0000002')]);
    expect(await stateAt(store, SID, 'm0000004')).toMatchObject({ ok: true, revision: `${SID}:d0000002`, snapshot: second });

    // …and a sibling branch from the first message never sees either desk entry.
    await put(store, [msg('s0000001', 'm0000001')]);
    expect(await stateAt(store, SID, 's0000001')).toMatchObject({ ok: true, revision: `${SID}:root`, snapshot: snap({}) });
    // A sibling under the first desk entry sees only the first.
    await put(store, [msg('s0000002', 'd0000001')]);
    expect(await stateAt(store, SID, 's0000002')).toMatchObject({ ok: true, revision: `${SID}:d0000001`, snapshot: first });
  });

  it('a corrupt desk entry makes every descendant branch corrupt, even under a later valid desk entry', async () => {
    const store = await openStore();
    await store.createSession(header(), [msg('m0000001', null), desk('d0000001', 'm0000001', snap({ 'basil-genovese': 1 }))]);
    await put(store, [desk('c0000001', 'd0000001', CORRUPT), msg('m0000002', 'c0000001'), desk('d0000002', 'm0000002', snap({ 'bean-scarlet': 1 })), msg('m0000003', 'd0000002')]);
    const atCorrupt = await stateAt(store, SID, 'c0000001');
    expect(atCorrupt).toMatchObject({ ok: false, revision: `${SID}:c0000001`, deskHead: 'c0000001', corruptEntryId: 'c0000001' });
    expect(await stateAt(store, SID, 'm0000002')).toMatchObject({ ok: false, revision: `${SID}:c0000001`, corruptEntryId: 'c0000001' });
    const below = await stateAt(store, SID, 'm0000003');
    expect(below).toMatchObject({ ok: false, revision: `${SID}:d0000002`, deskHead: 'd0000002', corruptEntryId: 'c0000001' });
    if (!below.ok) expect(below.problem).toMatch(/version/);
    // The branch above the corrupt entry is still fine.
    expect(await stateAt(store, SID, 'd0000001')).toMatchObject({ ok: true, snapshot: snap({ 'basil-genovese': 1 }) });
  });

  it('a leaf that is not stored is a StorageFailure, and decide is never asked', async () => {
    const store = await openStore();
    await store.createSession(header(), [msg('m0000001', null)]);
    const { decide, seen } = peek();
    await expect(store.commitChecked(SID, asEntryId('nothere1'), decide)).rejects.toBeInstanceOf(StorageFailure);
    expect(seen).toEqual([]);
  });

  it.each([
    { fault: 'abort' as const, pattern: /abort/i },
    { fault: 'quota' as const, pattern: /quota/i },
  ])('injected fault $fault: commitChecked rejects with StorageFailure, stores nothing, and the next write succeeds', async ({ fault, pattern }) => {
    const store = await openStore();
    await store.createSession(header(), [msg('m0000001', null)]);
    const beforeEntries = await store.loadEntries(SID);

    store.injectFault(fault);
    const failing = store.commitChecked(SID, asEntryId('m0000001'), () => ({
      append: true,
      entries: [desk('d0000001', 'm0000001', snap({ 'basil-genovese': 2 }))],
    }));
    await expect(failing).rejects.toBeInstanceOf(StorageFailure);
    await expect(failing).rejects.toThrow(pattern);
    expect(await store.loadEntries(SID)).toEqual(beforeEntries);
    expect(await store.countEntries(SID)).toBe(1);
    expect(await store.getEntry(SID, 'd0000001')).toBeUndefined();
    expect(await stateAt(store, SID, 'm0000001')).toMatchObject({ revision: `${SID}:root` });

    // The fault was consumed: the same commit now goes through.
    const outcome = await store.commitChecked(SID, asEntryId('m0000001'), () => ({
      append: true,
      entries: [desk('d0000001', 'm0000001', snap({ 'basil-genovese': 2 }))],
    }));
    expect(outcome.kind).toBe('appended');
    expect(ids(await store.loadEntries(SID))).toEqual(['m0000001', 'd0000001']);
    expect(await store.countEntries(SID)).toBe(2);
    expect(await stateAt(store, SID, 'd0000001')).toMatchObject({ ok: true, revision: `${SID}:d0000001` });
  });

  it("an injected fault also fails a plain multi-entry append without leaving any of it", async () => {
    const store = await openStore();
    await store.createSession(header(), [msg('m0000001', null)]);
    store.injectFault('quota');
    await expect(put(store, [msg('m0000002', 'm0000001'), msg('m0000003', 'm0000002')])).rejects.toThrow(/quota/i);
    expect(ids(await store.loadEntries(SID))).toEqual(['m0000001']);
    expect(await store.countEntries(SID)).toBe(1);
    await put(store, [msg('m0000002', 'm0000001')]);
    expect(ids(await store.loadEntries(SID))).toEqual(['m0000001', 'm0000002']);
  });
});

// ---------------------------------------------------------------- the speculative path

describe('JournalStore: commitChecked with the caller\'s expected state (speculative path)', () => {
  it('speculative commitChecked: an entry that cannot be stored fails the whole batch and leaves nothing behind', async () => {
    const store = await openStore();
    await store.createSession(header(), [msg('m0000001', null)]);
    const journal = SessionJournal.fromEntries(header(), (await store.loadEntries(SID)).map((r) => r.entry));
    // A function cannot be structured-cloned: the second add throws DataCloneError synchronously.
    const unstorable = { ...msg('m0000003', 'm0000002'), extra: () => 1 } as unknown as JournalEntry;
    const attempt = store.commitChecked(
      SID,
      asEntryId('m0000001'),
      () => ({ append: true, entries: [msg('m0000002', 'm0000001'), unstorable] }),
      journal.state(asEntryId('m0000001')),
    );
    await expect(attempt).rejects.toBeInstanceOf(StorageFailure);
    expect(ids(await store.loadEntries(SID))).toEqual(['m0000001']);
    expect(await store.countEntries(SID)).toBe(1);
  });

  /** m0000001 (message, root) → d0000001 (desk: basil 2) → m0000002 (message). */
  async function seeded(): Promise<{ store: JournalStore; journal: SessionJournal }> {
    const store = await openStore();
    await store.createSession(header(), [msg('m0000001', null), desk('d0000001', 'm0000001', snap({ 'basil-genovese': 2 })), msg('m0000002', 'd0000001')]);
    const journal = SessionJournal.fromEntries(header(), (await store.loadEntries(SID)).map((r) => r.entry));
    return { store, journal };
  }

  /** A decide that reserves one more bean on top of whatever state it is shown. */
  function beanOnTop(id: string, parent: string) {
    const seen: BranchState[] = [];
    const decide = (state: BranchState): CheckedAppend<string> => {
      seen.push(state);
      if (!state.ok) return { append: false, reason: 'corrupt' };
      const quantities = { ...state.snapshot.quantities, 'bean-scarlet': (state.snapshot.quantities['bean-scarlet'] ?? 0) + 1 };
      return { append: true, entries: [desk(id, parent, snap(quantities, state.snapshot.agentEnabled))] };
    };
    return { decide, seen };
  }

  it('a matching expected state appends exactly one entry, decided once on that state', async () => {
    const { store, journal } = await seeded();
    const expected = journal.state(asEntryId('m0000002'));
    const { decide, seen } = beanOnTop('d0000002', 'm0000002');
    const outcome = await store.commitChecked(SID, asEntryId('m0000002'), decide, expected);
    expect(outcome.kind).toBe('appended');
    expect(seen).toEqual([expected]);
    const stored = await store.loadEntries(SID);
    expect(ids(stored)).toEqual(['m0000001', 'd0000001', 'm0000002', 'd0000002']);
    expect(outcome.kind === 'appended' && outcome.records).toEqual([stored[3]]);
    expect(stored[3]).toMatchObject({ parentKey: 'm0000002', deskHead: 'd0000002', deskLink: { ok: true, snapshot: snap({ 'basil-genovese': 2, 'bean-scarlet': 1 }) } });
  });

  it('an approving commit on an empty branch (null leaf) goes through', async () => {
    const store = await openStore();
    await store.createSession(header());
    const expected = SessionJournal.empty(header()).state(null);
    const { decide, seen } = peek();
    const outcome = await store.commitChecked(SID, null, (state) => {
      decide(state);
      return { append: true, entries: [desk('d0000001', null, snap({ 'bean-scarlet': 1 }))] };
    }, expected);
    expect(outcome.kind).toBe('appended');
    expect(seen).toEqual([expected]);
    expect(await stateAt(store, SID, 'd0000001')).toMatchObject({ ok: true, snapshot: snap({ 'bean-scarlet': 1 }) });
  });

  it('a declining verdict on the expected state stores nothing', async () => {
    const { store, journal } = await seeded();
    const before = await store.loadEntries(SID);
    const outcome = await store.commitChecked(SID, asEntryId('m0000002'), () => ({ append: false, reason: 'stale' }), journal.state(asEntryId('m0000002')));
    expect(outcome).toEqual({ kind: 'declined', reason: 'stale' });
    expect(await store.loadEntries(SID)).toEqual(before);
  });

  it('an expected state that disagrees with the stored head keeps nothing from the guess: the stored state decides', async () => {
    const { store } = await seeded();
    const wrong = SessionJournal.empty(header()).state(null); // claims <sid>:root at a leaf that is under d0000001
    const { decide, seen } = beanOnTop('d0000002', 'm0000002');
    const outcome = await store.commitChecked(SID, asEntryId('m0000002'), decide, wrong);
    expect(outcome.kind).toBe('appended');
    expect(seen).toHaveLength(2);
    expect(seen[0]).toEqual(wrong);
    expect(seen[1]).toMatchObject({ ok: true, revision: `${SID}:d0000001`, snapshot: snap({ 'basil-genovese': 2 }) });
    const stored = await store.loadEntries(SID);
    expect(ids(stored)).toEqual(['m0000001', 'd0000001', 'm0000002', 'd0000002']);
    // The entry stored is the one decided on the stored state, not on the guess.
    expect(stored[3]!.entry['data']).toEqual(snap({ 'basil-genovese': 2, 'bean-scarlet': 1 }));
  });

  it('a leaf that is not stored is a StorageFailure and stores nothing', async () => {
    const { store, journal } = await seeded();
    const before = await store.loadEntries(SID);
    const { decide } = beanOnTop('d0000002', 'nothere1');
    await expect(store.commitChecked(SID, asEntryId('nothere1'), decide, journal.state(asEntryId('m0000002')))).rejects.toBeInstanceOf(StorageFailure);
    expect(await store.loadEntries(SID)).toEqual(before);
  });

  it('a null leaf on a session that is not stored is a StorageFailure and stores nothing', async () => {
    const store = await openStore();
    const expected = SessionJournal.empty(header()).state(null);
    await expect(store.commitChecked(SID, null, () => ({ append: true, entries: [msg('a0000001', null)] }), expected)).rejects.toSatisfy(
      (error: unknown) => error instanceof StorageFailure && /not in the database/.test(error.message),
    );
    expect(await store.loadEntries(SID)).toEqual([]);
  });

  it('a duplicate id is a StorageFailure that stores nothing, and the next write succeeds', async () => {
    const { store, journal } = await seeded();
    const before = await store.loadEntries(SID);
    const expected = journal.state(asEntryId('m0000002'));
    const { decide } = beanOnTop('m0000001', 'm0000002'); // m0000001 is already stored
    await expect(store.commitChecked(SID, asEntryId('m0000002'), decide, expected)).rejects.toSatisfy(
      (error: unknown) => error instanceof StorageFailure && /already stored/.test(error.message),
    );
    expect(await store.loadEntries(SID)).toEqual(before);
    const next = beanOnTop('d0000002', 'm0000002');
    expect((await store.commitChecked(SID, asEntryId('m0000002'), next.decide, expected)).kind).toBe('appended');
    expect(await store.countEntries(SID)).toBe(4);
  });

  it.each([
    { fault: 'abort' as const, pattern: /abort/i },
    { fault: 'quota' as const, pattern: /quota/i },
  ])('an injected $fault fault still fails the commit and stores nothing', async ({ fault, pattern }) => {
    const { store, journal } = await seeded();
    const before = await store.loadEntries(SID);
    const expected = journal.state(asEntryId('m0000002'));
    store.injectFault(fault);
    const { decide } = beanOnTop('d0000002', 'm0000002');
    await expect(store.commitChecked(SID, asEntryId('m0000002'), decide, expected)).rejects.toThrow(pattern);
    expect(await store.loadEntries(SID)).toEqual(before);
    // Consumed: the retry goes through.
    expect((await store.commitChecked(SID, asEntryId('m0000002'), decide, expected)).kind).toBe('appended');
    expect(await store.countEntries(SID)).toBe(4);
  });
});

// ---------------------------------------------------------------- oracle

const DEFAULT_SEED = 20260502;
const envSeed = process.env['STORE_FC_SEED'];
const SEED = envSeed !== undefined && envSeed !== '' ? Number(envSeed) : DEFAULT_SEED;

type Item = { readonly kind: 'msg' } | { readonly kind: 'desk'; readonly data: unknown };
type Step = {
  /** Which existing entry the batch hangs off (modulo the count; the count itself means a new root). */
  readonly pick: number;
  readonly items: readonly Item[];
  /** Chain the batch (each under the previous) or fan it out under the picked parent. */
  readonly chain: boolean;
  /** Go through commitChecked (one entry, decided on the picked leaf) instead of a plain append. */
  readonly checked: boolean;
  /** With `checked`: hand commitChecked the rebuilt state as `expected` (the speculative path). */
  readonly speculative: boolean;
};

const validSnapshotArb: fc.Arbitrary<Snapshot> = fc
  .record({
    agentEnabled: fc.boolean(),
    basil: fc.integer({ min: 0, max: 8 }),
    bean: fc.integer({ min: 0, max: 5 }),
    marigold: fc.integer({ min: 0, max: 3 }),
  })
  .map(({ agentEnabled, basil, bean, marigold }) => {
    const quantities: Record<string, number> = {};
    if (basil > 0) quantities['basil-genovese'] = basil;
    if (bean > 0) quantities['bean-scarlet'] = bean;
    if (marigold > 0) quantities['marigold-french'] = marigold;
    return { version: 1, agentEnabled, quantities } as Snapshot;
  });
const corruptDataArb: fc.Arbitrary<unknown> = fc.constantFrom<unknown>(
  CORRUPT,
  { version: 1, agentEnabled: 'yes', quantities: {} },
  { version: 1, agentEnabled: false, quantities: { tomato: 1 } },
  { version: 1, agentEnabled: false, quantities: { 'marigold-french': 4 } },
  { version: 1, agentEnabled: false, quantities: { 'bean-scarlet': 1.5 } },
  { version: 1, agentEnabled: false },
  null,
  'not an object',
);
const itemArb: fc.Arbitrary<Item> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ kind: 'msg' as const }) },
  { weight: 4, arbitrary: validSnapshotArb.map((data) => ({ kind: 'desk' as const, data })) },
  { weight: 1, arbitrary: corruptDataArb.map((data) => ({ kind: 'desk' as const, data })) },
);
const stepArb: fc.Arbitrary<Step> = fc.record({
  pick: fc.nat({ max: 1000 }),
  items: fc.array(itemArb, { minLength: 1, maxLength: 3 }),
  chain: fc.boolean(),
  checked: fc.boolean(),
  speculative: fc.boolean(),
});

/** What the stored index says about the branch ending at `record`. */
function storedState(sid: SessionId, record: EntryRecord, byId: ReadonlyMap<string, EntryRecord>): BranchState {
  const head = record.deskHead === null ? undefined : byId.get(record.deskHead);
  if (record.deskHead !== null) expect(head, `desk head ${record.deskHead} of ${record.id} is stored`).toBeDefined();
  return branchStateFrom(sid, record.deskHead, head?.deskLink ?? ROOT_LINK);
}

describe('JournalStore: oracle', () => {
  it(`stored deskHead/deskLink equal a rebuild from the entries alone (fast-check seed ${SEED}, 50 runs)`, async () => {
    let run = 0;
    // What the runs reached, so a generator change that stops producing these cannot pass silently.
    const reached = { corruptBranches: 0, deskBranches: 0, checkedCommits: 0, siblingForks: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 16 }), async (steps) => {
        const store = await openStore(`store-oracle-${SEED}-${++run}`);
        const sid = SID;
        const head = header(sid);
        await store.createSession(head);
        const known: EntryId[] = [];
        let counter = 0;
        const nextId = () => asEntryId(`e${(counter++).toString(16).padStart(7, '0')}`);
        const entryOf = (item: Item, id: EntryId, parent: EntryId | null): JournalEntry =>
          item.kind === 'msg' ? msg(id, parent) : desk(id, parent, item.data);

        for (const step of steps) {
          const pickIndex = step.pick % (known.length + 1);
          const parent = pickIndex === known.length ? null : known[pickIndex]!;
          if (step.checked) {
            // A checked commit: decide must see exactly what a rebuild says about the leaf.
            const reference = SessionJournal.fromEntries(head, (await store.loadEntries(sid)).map((r) => r.entry));
            const id = nextId();
            const item = step.items[0]!;
            await store.commitChecked(
              sid,
              parent,
              (state) => {
                expect(state).toEqual(reference.state(parent));
                return { append: true, entries: [entryOf(item, id, parent)] };
              },
              step.speculative ? reference.state(parent) : undefined,
            );
            known.push(id);
            reached.checkedCommits++;
          } else {
            const batch: JournalEntry[] = [];
            let above = parent;
            for (const item of step.items) {
              const id = nextId();
              batch.push(entryOf(item, id, above));
              known.push(id);
              if (step.chain) above = id;
            }
            await store.append(sid, parent, batch);
          }
        }

        const records = await store.loadEntries(sid);
        expectIncreasing(records.map((r) => r.seq));
        expect(ids(records)).toEqual(known);
        const byId = new Map(records.map((r) => [r.id as string, r]));
        reached.siblingForks += records.filter((r, i) => records.findIndex((o) => o.parentKey === r.parentKey) !== i).length;
        const journal = SessionJournal.fromEntries(head, records.map((r) => r.entry));
        for (const record of records) {
          expect(record.parentKey).toBe(record.entry.parentId ?? '');
          expect(record.deskHead).toBe(journal.deskHeadOf(record.id));
          if (isSeedDeskEntry(record.entry)) expect(record.deskHead).toBe(record.id);
          const expected = journal.state(record.id);
          // Through the head record's link (the two-read path) and through the record's own link.
          expect({ id: record.id, state: storedState(sid, record, byId) }).toEqual({ id: record.id, state: expected });
          expect({ id: record.id, state: branchStateFrom(sid, record.deskHead, record.deskLink) }).toEqual({ id: record.id, state: expected });
          if (!expected.ok) reached.corruptBranches++;
          else if (expected.deskHead !== null) reached.deskBranches++;
        }
        store.close();
      }),
      { seed: SEED, numRuns: 50, endOnFailure: true },
    );
    expect(reached.corruptBranches).toBeGreaterThan(0);
    expect(reached.deskBranches).toBeGreaterThan(0);
    expect(reached.checkedCommits).toBeGreaterThan(0);
    expect(reached.siblingForks).toBeGreaterThan(0);
  });
});
