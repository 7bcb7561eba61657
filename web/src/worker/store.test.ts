import 'fake-indexeddb/auto';
/**
 * The IndexedDB journal store on fake-indexeddb. Every test opens its own database name, so the
 * tests share nothing; the stores are closed and the databases deleted after each test.
 *
 * Each behaviour runs twice: without Web Locks (every write reads its head in the transaction) and
 * with the writer lease (fake Web Locks: a head written this tenure is known without a read).
 * The oracle at the end replays a seeded random tree of appends and checks that every derived
 * fact on disk equals what the entries alone rebuild.
 * Replay a failure: STORE_FC_SEED=<seed> npx vitest run web/src/worker/store.test.ts
 */
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asEntryId, asSessionId, type EntryId, type SessionId } from '$domain/ids';
import { assistantMessageEntry, customEntry, sessionHeader, userMessageEntry, type JournalEntry } from '$domain/journal/entry';
import { SessionJournal } from '$domain/journal/journal';
import type { BranchState } from '$domain/reconstruct';
import { SEED_DESK_CUSTOM_TYPE, type Snapshot } from '$domain/snapshot';
import { freshDatabases } from './databases.testkit';
import { SEGMENT_ENTRIES } from './segments';
import { JournalStore, StorageFailure, type CheckedAppend, type StoreOptions } from './store';
import { FakeLocks } from './storeLease.testkit';
import { expectDerivedFactsMatch, readRaw } from './storeRaw.testkit';
import { storedChildren, storedEntries, storedEntry, type StoredEntry } from './storeReads.testkit';

const TIME = '2026-05-01T12:00:00.000Z';
const SID = asSessionId('5e55104a-0000-4000-8000-000000000001');
const OTHER_SID = asSessionId('5e55104a-0000-4000-8000-000000000002');

// ---------------------------------------------------------------- helpers

const databases = freshDatabases('store-test');

const MODES: readonly { readonly mode: string; readonly options: () => StoreOptions }[] = [
  { mode: 'without Web Locks', options: () => ({ locks: null }) },
  { mode: 'under the writer lease', options: () => ({ locks: new FakeLocks() }) },
];

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

const ids = (records: readonly StoredEntry[]) => records.map((record) => record.id);

/** A plain append whose leaf is the first entry's parent, as the host calls it. */
const put = (store: JournalStore, entries: readonly JournalEntry[], sid: SessionId = SID) => store.append(sid, entries[0]!.parentId, entries);

/** A linear chain of `count` messages with a desk entry every 7th, ids `<prefix><n>`. */
function chain(count: number, prefix = 'c'): JournalEntry[] {
  const entries: JournalEntry[] = [];
  for (let i = 0; i < count; i++) {
    const id = `${prefix}${i.toString(16).padStart(7, '0')}`;
    const parent = entries[i - 1]?.id ?? null;
    entries.push(i % 7 === 6 ? desk(id, parent, snap({ 'basil-genovese': i % 9 })) : msg(id, parent));
  }
  return entries;
}

async function journalOf(store: JournalStore, sid: SessionId = SID): Promise<SessionJournal> {
  return SessionJournal.fromEntries(header(sid), await store.loadJournalEntries(sid));
}

describe.each(MODES)('JournalStore $mode', ({ options }) => {
  const openStore = (name?: string) => databases.openStore(name, options());

  // -------------------------------------------------------------- sessions and plain appends

  describe('sessions and appends', () => {
    it('an entry whose first parent is not the given leaf is refused, and nothing is stored', async () => {
      const store = await openStore();
      await store.createSession(header(), [msg('a0000001', null), desk('d0000001', 'a0000001', snap({ 'basil-genovese': 1 })), msg('b0000001', 'd0000001')]);
      await expect(store.append(SID, asEntryId('b0000001'), [msg('c0000001', 'd0000001')])).rejects.toBeInstanceOf(StorageFailure);
      expect(ids(await storedEntries(store, SID))).toEqual(['a0000001', 'd0000001', 'b0000001']);
    });

    it('a later entry of a batch must hang off the leaf or an earlier entry of the batch', async () => {
      const store = await openStore();
      await store.createSession(header(), [msg('a0000001', null), msg('a0000002', 'a0000001')]);
      await expect(put(store, [msg('b0000001', 'a0000002'), msg('b0000002', 'a0000001')])).rejects.toSatisfy(
        (error: unknown) => error instanceof StorageFailure && /neither the leaf nor an entry of this batch/.test(error.message),
      );
      expect(await store.countEntries(SID)).toBe(2);
    });

    it('createSession stores the header with its first entries, and they read back in append order', async () => {
      const store = await openStore();
      const created = await store.createSession(header(), [msg('a0000001', null), msg('a0000002', 'a0000001'), msg('a0000003', 'a0000002')]);
      expect(created).toMatchObject({ id: SID, header: header() });
      expect(await store.getSession(SID)).toMatchObject({ id: SID, header: header() });
      expect(await store.countEntries(SID)).toBe(3);
      const records = await storedEntries(store, SID);
      expect(ids(records)).toEqual(['a0000001', 'a0000002', 'a0000003']);
      expect(records[1]!.entry).toEqual(msg('a0000002', 'a0000001'));
      expect(await store.listSessions()).toHaveLength(1);
    });

    it('a session created materialized says so in its record and its head; one created without the mark has none', async () => {
      const store = await openStore();
      await store.createSession(header(SID), [], undefined, { materialized: true });
      await store.createSession(header(OTHER_SID), [msg('a0000001', null)]);
      expect(await store.getSession(SID)).toMatchObject({ materialized: true });
      expect(await store.loadHead(SID)).toMatchObject({ entryCount: 0, hasAssistantMessage: false, materialized: true });
      expect(await store.getSession(OTHER_SID)).not.toHaveProperty('materialized');
      expect(await store.loadHead(OTHER_SID)).toMatchObject({ materialized: false });
    });

    it(`a created session of ${2 * SEGMENT_ENTRIES + 500} entries reads back whole, in order, across its segments, with progress up to the total`, async () => {
      const store = await openStore();
      const entries = chain(2 * SEGMENT_ENTRIES + 500);
      const progress: [number, number][] = [];
      await store.createSession(header(), entries, (done, total) => progress.push([done, total]));
      expect((await store.loadJournalEntries(SID)).map((entry) => entry.id)).toEqual(entries.map((entry) => entry.id));
      expect(await store.loadJournalEntries(SID)).toEqual(entries);
      expect(progress.length).toBeGreaterThanOrEqual(3);
      expect(progress.every(([, total]) => total === entries.length)).toBe(true);
      expect(progress.map(([done]) => done)).toEqual([...progress.map(([done]) => done)].sort((a, b) => a - b));
      expect(progress.at(-1)).toEqual([entries.length, entries.length]);
      expect(await store.countEntries(SID)).toBe(entries.length);
    });

    it('entries read back exactly as written, key order and an own "__proto__" key included', async () => {
      const store = await openStore();
      const lines = [
        JSON.stringify(msg('a0000001', null)),
        '{"type":"custom","customType":"x","__proto__":{"polluted":true},"data":{"b":1,"a":2},"id":"o0000001","parentId":"a0000001","timestamp":"t"}',
        JSON.stringify(msg('a0000002', 'o0000001')),
        '{"id":"o0000002","type":"custom","__proto__":[1],"parentId":"a0000002"}',
      ];
      const entries = lines.map((line) => JSON.parse(line) as JournalEntry);
      await store.createSession(header(), entries.slice(0, 3));
      await put(store, entries.slice(3));
      const read = await store.loadJournalEntries(SID);
      expect(read.map((entry) => JSON.stringify(entry))).toEqual(lines);
      expect(Object.hasOwn(read[1]!, '__proto__')).toBe(true);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    });

    it('append keeps order across calls and childrenOf finds children in append order, created and appended alike', async () => {
      const store = await openStore();
      await store.createSession(header(), [msg('r0000000', null), msg('c0000001', 'r0000000'), msg('c0000002', 'r0000000')]);
      const tail: JournalEntry[] = [];
      let parent = 'c0000002';
      for (let i = 0; i < 9; i++) {
        const id = `d000000${i}`;
        tail.push(msg(id, parent));
        parent = id;
      }
      await put(store, tail);
      await put(store, [msg('c0000003', 'r0000000')]);
      const records = await storedEntries(store, SID);
      expect(ids(records)).toEqual(['r0000000', 'c0000001', 'c0000002', ...tail.map((e) => e.id), 'c0000003']);
      expect(await store.countEntries(SID)).toBe(13);

      expect(ids(await storedChildren(store, SID, asEntryId('r0000000')))).toEqual(['c0000001', 'c0000002', 'c0000003']);
      expect(ids(await storedChildren(store, SID, asEntryId('c0000002')))).toEqual(['d0000000']);
      expect(ids(await storedChildren(store, SID, asEntryId('c0000001')))).toEqual([]);
      expect(ids(await storedChildren(store, SID, null))).toEqual(['r0000000']);
      expect((await storedEntry(store, SID, 'd0000004'))?.entry).toEqual(tail[4]);
      expect((await storedEntry(store, SID, 'c0000001'))?.entry).toEqual(msg('c0000001', 'r0000000'));
    });

    it("keeps sessions apart: a session's entries, children and lookups never see another session", async () => {
      const store = await openStore();
      await store.createSession(header(SID), [msg('a0000001', null)]);
      await store.createSession(header(OTHER_SID), [msg('a0000001', null), msg('b0000002', 'a0000001'), msg('b0000003', 'b0000002')]);
      expect(ids(await storedEntries(store, SID))).toEqual(['a0000001']);
      expect(ids(await storedEntries(store, OTHER_SID))).toEqual(['a0000001', 'b0000002', 'b0000003']);
      expect(ids(await storedChildren(store, SID, asEntryId('a0000001')))).toEqual([]);
      expect(await storedEntry(store, SID, 'b0000002')).toBeUndefined();
    });

    it('createSession of an existing id fails with StorageFailure and writes nothing', async () => {
      const store = await openStore();
      await store.createSession(header(), [msg('a0000001', null)]);
      const before = await store.getSession(SID);
      const beforeEntries = await storedEntries(store, SID);
      await expect(store.createSession(header(), [msg('b0000001', null), msg('b0000002', 'b0000001')])).rejects.toSatisfy(
        (error: unknown) => error instanceof StorageFailure && /already exists/.test(error.message),
      );
      expect(await storedEntries(store, SID)).toEqual(beforeEntries);
      expect(await storedEntry(store, SID, 'b0000001')).toBeUndefined();
      expect(await store.getSession(SID)).toEqual(before);
      expect(await store.listSessions()).toHaveLength(1);
    });

    it('a multi-entry append that fails halfway (duplicate id in the batch) stores none of it', async () => {
      const store = await openStore();
      await store.createSession(header(), [msg('a0000001', null)]);
      const batch = [msg('b0000001', 'a0000001'), desk('b0000002', 'b0000001', snap({ 'basil-genovese': 1 })), msg('b0000001', 'b0000002')];
      await expect(put(store, batch)).rejects.toSatisfy((error: unknown) => error instanceof StorageFailure && /already stored/.test(error.message));
      expect(ids(await storedEntries(store, SID))).toEqual(['a0000001']);
      expect(await store.countEntries(SID)).toBe(1);
      expect(await storedEntry(store, SID, 'b0000001')).toBeUndefined();
      expect(await storedEntry(store, SID, 'b0000002')).toBeUndefined();
      expect(await storedChildren(store, SID, asEntryId('a0000001'))).toEqual([]);
      // The store is still usable afterwards, and its tally did not count the failed batch.
      await put(store, [msg('c0000001', 'a0000001')]);
      expect(ids(await storedEntries(store, SID))).toEqual(['a0000001', 'c0000001']);
      expect(await store.countEntries(SID)).toBe(2);
    });

    it('writes fired together from one store land one after another, each counted once', async () => {
      const name = databases.nextName();
      const store = await openStore(name);
      await store.createSession(header(), [msg('r0000000', null)]);
      await put(store, [msg('r0000001', 'r0000000')]);
      const root = asEntryId('r0000000');
      await Promise.all([
        ...Array.from({ length: 6 }, (_, i) => store.append(SID, root, [msg(`f000000${i}`, root)])),
        ...Array.from({ length: 6 }, (_, i) => store.commitChecked(SID, root, () => ({ append: true, entries: [desk(`g000000${i}`, root, snap({ 'bean-scarlet': i }))] }))),
        store.setLastSession(SID),
      ]);
      const journal = await journalOf(store);
      expect(journal.size).toBe(14);
      expectDerivedFactsMatch(await readRaw(name, SID), journal);
      expect(await store.loadHead(SID)).toMatchObject({ entryCount: 14, seedDeskEntryCount: 6 });
    });

    it('an entry id already stored in the session is refused, not overwritten', async () => {
      const store = await openStore();
      await store.createSession(header(), [msg('a0000001', null, 'original')]);
      await expect(put(store, [msg('a0000001', null, 'impostor')])).rejects.toBeInstanceOf(StorageFailure);
      const records = await storedEntries(store, SID);
      expect(records).toHaveLength(1);
      expect(records[0]!.entry).toEqual(msg('a0000001', null, 'original'));
    });

    it('createSession with a duplicate id among its first entries creates nothing, not even the session', async () => {
      const store = await openStore();
      await expect(store.createSession(header(), [msg('a0000001', null), msg('a0000001', null)])).rejects.toBeInstanceOf(StorageFailure);
      expect(await store.getSession(SID)).toBeUndefined();
      expect(await storedEntries(store, SID)).toEqual([]);
      expect(await store.listSessions()).toEqual([]);
    });

    it('append to a session that is not stored fails with StorageFailure', async () => {
      const store = await openStore();
      await expect(put(store, [msg('a0000001', null)])).rejects.toSatisfy((error: unknown) => error instanceof StorageFailure && /not in the database/.test(error.message));
      expect(await storedEntries(store, SID)).toEqual([]);
    });

    it('deleteSession removes the session, its segments, index and records, and leaves other sessions alone', async () => {
      const name = databases.nextName();
      const store = await openStore(name);
      const created = chain(SEGMENT_ENTRIES + 3, 'a');
      await store.createSession(header(SID), created);
      await put(store, [msg('x0000001', created.at(-1)!.id)]);
      await store.createSession(header(OTHER_SID), [msg('a0000001', null)]);
      await store.deleteSession(SID);
      expect(await store.getSession(SID)).toBeUndefined();
      expect(await storedEntries(store, SID)).toEqual([]);
      expect(await storedEntry(store, SID, 'a0000001')).toBeUndefined();
      expect(await storedChildren(store, SID, null)).toEqual([]);
      expect(await readRaw(name, SID)).toEqual({ records: [], segments: [], index: undefined });
      expect(ids(await storedEntries(store, OTHER_SID))).toEqual(['a0000001']);
      expect((await store.listSessions()).map((s) => s.id)).toEqual([OTHER_SID]);
      // The id is free again, and what the store knew about the old session is gone with it.
      await store.createSession(header(SID), [msg('a0000009', null)]);
      expect(ids(await storedEntries(store, SID))).toEqual(['a0000009']);
      expect(await store.countEntries(SID)).toBe(1);
      await expect(put(store, [msg('x0000002', 'x0000001')])).rejects.toBeInstanceOf(StorageFailure);
    });

    it('persists across close() and a re-open of the same database name', async () => {
      const name = databases.nextName();
      const first = await openStore(name);
      await first.createSession(header(), [msg('a0000001', null)]);
      await put(first, [desk('a0000002', 'a0000001', snap({ 'bean-scarlet': 2 }, true))]);
      await first.setLastSession(SID);
      const before = await storedEntries(first, SID);
      first.close();

      const second = await openStore(name);
      expect(await second.lastSessionId()).toBe(SID);
      expect(await second.getSession(SID)).toMatchObject({ id: SID, header: header() });
      expect(await second.countEntries(SID)).toBe(2);
      expect(await storedEntries(second, SID)).toEqual(before);
      expect(await stateAt(second, SID, 'a0000002')).toMatchObject({ ok: true, revision: `${SID}:a0000002`, snapshot: snap({ 'bean-scarlet': 2 }, true) });
    });
  });

  // -------------------------------------------------------------- the head

  describe('loadHead', () => {
    it('is null for a session that is not stored, and the empty desk for an empty one', async () => {
      const store = await openStore();
      expect(await store.loadHead(SID)).toBeNull();
      await store.createSession(header());
      expect(await store.loadHead(SID)).toEqual({
        header: header(),
        entryCount: 0,
        seedDeskEntryCount: 0,
        lastEntry: null,
        lastState: { ok: true, sessionId: SID, revision: `${SID}:root`, deskHead: null, snapshot: snap({}) },
        hasAssistantMessage: false,
        materialized: false,
      });
    });

    it('describes the last appended entry and the whole session, after a create and after appends on another branch', async () => {
      const store = await openStore();
      const entries = chain(SEGMENT_ENTRIES + 20);
      await store.createSession(header(), entries);
      const journal = await journalOf(store);
      expect(await store.loadHead(SID)).toEqual({
        header: header(),
        entryCount: entries.length,
        seedDeskEntryCount: journal.seedDeskEntryCount,
        lastEntry: entries.at(-1),
        lastState: journal.state(),
        hasAssistantMessage: false,
        materialized: false,
      });
      // A side branch off an early desk entry: the head follows the last appended entry, not the longest branch.
      const early = entries[6]!.id;
      const side = [desk('s0000001', early, CORRUPT), assistantMessageEntry([{ type: 'text', text: 'hi' }], place('s0000002', 's0000001'))];
      await store.append(SID, early, side);
      const head = await store.loadHead(SID);
      expect(head).toMatchObject({ entryCount: entries.length + 2, seedDeskEntryCount: journal.seedDeskEntryCount + 1, lastEntry: side[1], hasAssistantMessage: true });
      expect(head?.lastState).toEqual((await journalOf(store)).state(asEntryId('s0000002')));
      expect(head?.lastState).toMatchObject({ ok: false, corruptEntryId: 's0000001' });
    });
  });

  // -------------------------------------------------------------- checked commits

  describe('commitChecked', () => {
    it('appends exactly one entry when decide says append, as a child of the leaf', async () => {
      const store = await openStore();
      await store.createSession(header(), [msg('a0000001', null)]);
      const entry = desk('d0000001', 'a0000001', snap({ 'basil-genovese': 2 }));
      const outcome = await store.commitChecked(SID, asEntryId('a0000001'), () => ({ append: true, entries: [entry] }));
      expect(outcome.kind).toBe('appended');
      if (outcome.kind !== 'appended') return;
      expect(outcome.records).toHaveLength(1);
      expect(outcome.records[0]).toMatchObject({ id: 'd0000001', parentKey: 'a0000001', deskHead: 'd0000001', entry, position: 1, deskEntries: 1 });
      const stored = await storedEntries(store, SID);
      expect(ids(stored)).toEqual(['a0000001', 'd0000001']);
      expect(stored[1]!.entry).toEqual(outcome.records[0]!.entry);
      expect(await store.countEntries(SID)).toBe(2);
    });

    it('appends nothing when decide declines, and hands back the reason', async () => {
      const store = await openStore();
      await store.createSession(header(), [msg('a0000001', null)]);
      const before = await storedEntries(store, SID);
      const outcome = await store.commitChecked(SID, asEntryId('a0000001'), () => ({ append: false, reason: { code: 'stale-revision' } }));
      expect(outcome).toEqual({ kind: 'declined', reason: { code: 'stale-revision' } });
      expect(await storedEntries(store, SID)).toEqual(before);
      expect(await store.countEntries(SID)).toBe(1);
    });

    it('shows decide the branch state: <sid>:root before any desk entry, then <sid>:<latest desk entry on the branch>', async () => {
      const store = await openStore();
      await store.createSession(header());
      expect(await stateAt(store, SID, null)).toEqual({ ok: true, sessionId: SID, revision: `${SID}:root`, deskHead: null, snapshot: snap({}) });
      await put(store, [msg('m0000001', null)]);
      expect(await stateAt(store, SID, 'm0000001')).toMatchObject({ ok: true, revision: `${SID}:root`, deskHead: null, snapshot: snap({}) });

      const first = snap({ 'basil-genovese': 2 });
      await store.commitChecked(SID, asEntryId('m0000001'), (state) => {
        expect(state.revision).toBe(`${SID}:root`);
        return { append: true, entries: [desk('d0000001', 'm0000001', first)] };
      });
      expect(await stateAt(store, SID, 'd0000001')).toEqual({ ok: true, sessionId: SID, revision: `${SID}:d0000001`, deskHead: 'd0000001', snapshot: first });

      await put(store, [msg('m0000002', 'd0000001'), msg('m0000003', 'm0000002')]);
      expect(await stateAt(store, SID, 'm0000003')).toMatchObject({ ok: true, revision: `${SID}:d0000001`, snapshot: first });

      const second = snap({ 'basil-genovese': 2, 'bean-scarlet': 1 }, true);
      await put(store, [desk('d0000002', 'm0000003', second), msg('m0000004', 'd0000002')]);
      expect(await stateAt(store, SID, 'm0000004')).toMatchObject({ ok: true, revision: `${SID}:d0000002`, snapshot: second });

      await put(store, [msg('s0000001', 'm0000001')]);
      expect(await stateAt(store, SID, 's0000001')).toMatchObject({ ok: true, revision: `${SID}:root`, snapshot: snap({}) });
      await put(store, [msg('s0000002', 'd0000001')]);
      expect(await stateAt(store, SID, 's0000002')).toMatchObject({ ok: true, revision: `${SID}:d0000001`, snapshot: first });
    });

    it('decides on the stored state of a leaf the session was created with, deep inside a segment', async () => {
      const store = await openStore();
      const entries = chain(SEGMENT_ENTRIES + 50);
      await store.createSession(header(), entries);
      const journal = await journalOf(store);
      for (const at of [0, 6, 500, SEGMENT_ENTRIES - 1, SEGMENT_ENTRIES + 48]) {
        const id = entries[at]!.id;
        expect({ at, state: await stateAt(store, SID, id) }).toEqual({ at, state: journal.state(id) });
      }
      const leaf = entries[500]!.id;
      const outcome = await store.commitChecked(SID, leaf, () => ({ append: true, entries: [desk('n0000001', leaf, snap({ 'marigold-french': 3 }))] }));
      expect(outcome.kind === 'appended' && outcome.records[0]).toMatchObject({ position: entries.length, parentKey: leaf, deskHead: 'n0000001' });
      expect(ids(await storedChildren(store, SID, leaf))).toEqual([entries[501]!.id, 'n0000001']);
    });

    it('a corrupt desk entry makes every descendant branch corrupt, even under a later valid desk entry', async () => {
      const store = await openStore();
      await store.createSession(header(), [msg('m0000001', null), desk('d0000001', 'm0000001', snap({ 'basil-genovese': 1 }))]);
      await put(store, [desk('c0000001', 'd0000001', CORRUPT), msg('m0000002', 'c0000001'), desk('d0000002', 'm0000002', snap({ 'bean-scarlet': 1 })), msg('m0000003', 'd0000002')]);
      expect(await stateAt(store, SID, 'c0000001')).toMatchObject({ ok: false, revision: `${SID}:c0000001`, deskHead: 'c0000001', corruptEntryId: 'c0000001' });
      expect(await stateAt(store, SID, 'm0000002')).toMatchObject({ ok: false, revision: `${SID}:c0000001`, corruptEntryId: 'c0000001' });
      const below = await stateAt(store, SID, 'm0000003');
      expect(below).toMatchObject({ ok: false, revision: `${SID}:d0000002`, deskHead: 'd0000002', corruptEntryId: 'c0000001' });
      if (!below.ok) expect(below.problem).toMatch(/version/);
      expect(await stateAt(store, SID, 'd0000001')).toMatchObject({ ok: true, snapshot: snap({ 'basil-genovese': 1 }) });
    });

    it('a leaf that is not stored is a StorageFailure, and decide is never asked', async () => {
      const store = await openStore();
      await store.createSession(header(), [msg('m0000001', null), msg('m0000002', 'm0000001')]);
      const { decide, seen } = peek();
      await expect(store.commitChecked(SID, asEntryId('nothere1'), decide)).rejects.toBeInstanceOf(StorageFailure);
      expect(seen).toEqual([]);
    });

    it('a null leaf on a session that is not stored is a StorageFailure and stores nothing', async () => {
      const store = await openStore();
      await expect(store.commitChecked(SID, null, () => ({ append: true, entries: [msg('a0000001', null)] }))).rejects.toSatisfy(
        (error: unknown) => error instanceof StorageFailure && /not in the database/.test(error.message),
      );
      expect(await storedEntries(store, SID)).toEqual([]);
    });

    it('an entry that cannot be stored fails the whole batch and leaves nothing behind, on a leaf just written', async () => {
      const store = await openStore();
      await store.createSession(header(), [msg('m0000001', null)]);
      await put(store, [msg('m0000002', 'm0000001')]);
      // A function cannot be structured-cloned: the second add throws DataCloneError synchronously.
      const unstorable = { ...msg('m0000004', 'm0000003'), extra: () => 1 } as unknown as JournalEntry;
      await expect(store.commitChecked(SID, asEntryId('m0000002'), () => ({ append: true, entries: [msg('m0000003', 'm0000002'), unstorable] }))).rejects.toBeInstanceOf(StorageFailure);
      expect(ids(await storedEntries(store, SID))).toEqual(['m0000001', 'm0000002']);
      expect(await store.countEntries(SID)).toBe(2);
      await put(store, [msg('m0000003', 'm0000002')]);
      expect(await store.countEntries(SID)).toBe(3);
    });

  });

  // -------------------------------------------------------------- faults, on every write path

  describe('injected faults', () => {
    const FAULTS = [
      { fault: 'abort' as const, pattern: /abort/i },
      { fault: 'quota' as const, pattern: /quota/i },
      { fault: 'close' as const, pattern: /closed/i },
    ];

    /** A session whose leaf m0000002 this store has just written (the fast path under the lease). */
    async function seeded(name = databases.nextName()) {
      const store = await openStore(name);
      await store.createSession(header(), [msg('m0000001', null)]);
      await put(store, [msg('m0000002', 'm0000001')]);
      return { store, name };
    }

    it.each(FAULTS)('$fault: a checked commit on a known leaf fails, stores nothing, and the fault is consumed', async ({ fault, pattern }) => {
      const { store } = await seeded();
      store.injectFault(fault);
      const commit = () => store.commitChecked(SID, asEntryId('m0000002'), () => ({ append: true, entries: [desk('d0000001', 'm0000002', snap({ 'basil-genovese': 2 }))] }));
      await expect(commit()).rejects.toSatisfy((error: unknown) => error instanceof StorageFailure && pattern.test(error.message));
      if (fault === 'close') await store.reconnect();
      expect(ids(await storedEntries(store, SID))).toEqual(['m0000001', 'm0000002']);
      expect((await commit()).kind).toBe('appended');
      expect(await store.countEntries(SID)).toBe(3);
      expect(await stateAt(store, SID, 'd0000001')).toMatchObject({ ok: true, revision: `${SID}:d0000001` });
    });

    it.each(FAULTS)('$fault: a checked commit on a leaf read in the transaction fails and stores nothing', async ({ fault, pattern }) => {
      const { store } = await seeded();
      store.injectFault(fault);
      await expect(store.commitChecked(SID, asEntryId('m0000001'), () => ({ append: true, entries: [msg('b0000001', 'm0000001')] }))).rejects.toThrow(pattern);
      if (fault === 'close') await store.reconnect();
      expect(await store.countEntries(SID)).toBe(2);
      expect(await storedEntry(store, SID, 'b0000001')).toBeUndefined();
    });

    it.each(FAULTS)('$fault: a plain multi-entry append fails without leaving any of it', async ({ fault, pattern }) => {
      const { store } = await seeded();
      store.injectFault(fault);
      await expect(put(store, [msg('m0000003', 'm0000002'), msg('m0000004', 'm0000003')])).rejects.toThrow(pattern);
      if (fault === 'close') await store.reconnect();
      expect(ids(await storedEntries(store, SID))).toEqual(['m0000001', 'm0000002']);
      await put(store, [msg('m0000003', 'm0000002')]);
      expect(await store.countEntries(SID)).toBe(3);
    });

    it.each(FAULTS)('$fault: creating a session with segments stores no segment, index, record or session', async ({ fault, pattern }) => {
      const name = databases.nextName();
      const store = await openStore(name);
      store.injectFault(fault);
      const entries = chain(SEGMENT_ENTRIES + 10);
      await expect(store.createSession(header(), entries)).rejects.toThrow(pattern);
      if (fault === 'close') await store.reconnect();
      expect(await store.getSession(SID)).toBeUndefined();
      expect(await readRaw(name, SID)).toEqual({ records: [], segments: [], index: undefined });
      await store.createSession(header(), entries);
      expect(await store.countEntries(SID)).toBe(entries.length);
    });

    it.each(FAULTS)('$fault: deleting a session deletes nothing', async ({ fault, pattern }) => {
      const { store } = await seeded();
      store.injectFault(fault);
      await expect(store.deleteSession(SID)).rejects.toThrow(pattern);
      if (fault === 'close') await store.reconnect();
      expect(ids(await storedEntries(store, SID))).toEqual(['m0000001', 'm0000002']);
    });
  });

  // -------------------------------------------------------------- oracle

  describe('oracle', () => {
    const DEFAULT_SEED = 20260502;
    const envSeed = process.env['STORE_FC_SEED'];
    const SEED = envSeed !== undefined && envSeed !== '' ? Number(envSeed) : DEFAULT_SEED;

    type Item = { readonly kind: 'msg' } | { readonly kind: 'assistant' } | { readonly kind: 'desk'; readonly data: unknown };
    type Step = {
      /** Which existing entry the batch hangs off (modulo the count; the count itself means a new root). */
      readonly pick: number;
      readonly items: readonly Item[];
      /** Chain the batch (each under the previous) or fan it out under the picked parent. */
      readonly chain: boolean;
      /** Go through commitChecked (one entry, decided on the picked leaf) instead of a plain append. */
      readonly checked: boolean;
    };

    const validSnapshotArb: fc.Arbitrary<Snapshot> = fc
      .record({ agentEnabled: fc.boolean(), basil: fc.integer({ min: 0, max: 8 }), bean: fc.integer({ min: 0, max: 5 }), marigold: fc.integer({ min: 0, max: 3 }) })
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
      null,
    );
    const itemArb: fc.Arbitrary<Item> = fc.oneof(
      { weight: 4, arbitrary: fc.constant({ kind: 'msg' as const }) },
      { weight: 1, arbitrary: fc.constant({ kind: 'assistant' as const }) },
      { weight: 4, arbitrary: validSnapshotArb.map((data) => ({ kind: 'desk' as const, data })) },
      { weight: 1, arbitrary: corruptDataArb.map((data) => ({ kind: 'desk' as const, data })) },
    );
    const stepArb: fc.Arbitrary<Step> = fc.record({
      pick: fc.nat({ max: 1000 }),
      items: fc.array(itemArb, { minLength: 1, maxLength: 3 }),
      chain: fc.boolean(),
      checked: fc.boolean(),
    });

    it(`every derived fact on disk equals a rebuild from the entries alone, and each commit decides on the rebuilt state (fast-check seed ${SEED}, 40 runs)`, async () => {
      const reached = { corruptBranches: 0, deskBranches: 0, checkedCommits: 0, createdFirst: 0 };
      await fc.assert(
        fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 16 }), fc.nat({ max: 12 }), async (steps, createdCount) => {
          const name = databases.nextName();
          const store = await openStore(name);
          const head = header(SID);
          // Some runs start from a created session (segments + index), some from an empty one.
          const created = chain(createdCount, 'i');
          await store.createSession(head, created);
          if (created.length > 1) reached.createdFirst++;
          const known: EntryId[] = created.map((entry) => entry.id);
          let counter = 0;
          const nextId = () => asEntryId(`e${(counter++).toString(16).padStart(7, '0')}`);
          const entryOf = (item: Item, id: EntryId, parent: EntryId | null): JournalEntry =>
            item.kind === 'msg' ? msg(id, parent) : item.kind === 'assistant' ? assistantMessageEntry([{ type: 'text', text: 'ok' }], place(id, parent)) : desk(id, parent, item.data);

          for (const step of steps) {
            const pickIndex = step.pick % (known.length + 1);
            const parent = pickIndex === known.length ? null : known[pickIndex]!;
            if (step.checked) {
              const reference = await journalOf(store);
              const id = nextId();
              await store.commitChecked(SID, parent, (state) => {
                expect(state).toEqual(reference.state(parent));
                return { append: true, entries: [entryOf(step.items[0]!, id, parent)] };
              });
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
              await store.append(SID, parent, batch);
            }
          }

          const journal = await journalOf(store);
          expect(journal.entries().map((entry) => entry.id)).toEqual(known);
          expectDerivedFactsMatch(await readRaw(name, SID), journal);
          expect(await store.loadHead(SID)).toMatchObject({ entryCount: known.length, seedDeskEntryCount: journal.seedDeskEntryCount, lastState: journal.state() });
          for (const id of known) {
            const state = journal.state(id);
            if (!state.ok) reached.corruptBranches++;
            else if (state.deskHead !== null) reached.deskBranches++;
          }
        }),
        { seed: SEED, numRuns: 40, endOnFailure: true },
      );
      expect(reached.corruptBranches).toBeGreaterThan(0);
      expect(reached.deskBranches).toBeGreaterThan(0);
      expect(reached.checkedCommits).toBeGreaterThan(0);
      expect(reached.createdFirst).toBeGreaterThan(0);
    });
  });
});
