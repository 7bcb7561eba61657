import 'fake-indexeddb/auto';
/**
 * Two JournalStores on one database play two tabs, sharing one set of (fake) Web Locks. Under the
 * writer lease a store skips the head read for a head it wrote this tenure; these tests show
 * that it does skip it, and that it never trusts what it knew once the lease changed hands.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { asEntryId, asSessionId, type EntryId } from '$domain/ids';
import { customEntry, sessionHeader, userMessageEntry, type JournalEntry } from '$domain/journal/entry';
import { SessionJournal } from '$domain/journal/journal';
import type { BranchState } from '$domain/reconstruct';
import { SEED_DESK_CUSTOM_TYPE } from '$domain/snapshot';
import { freshDatabases } from './databases.testkit';
import type { JournalStore, StoreOptions } from './store';
import { FakeLocks } from './storeLease.testkit';
import { expectDerivedFactsMatch, readRaw } from './storeRaw.testkit';

const TIME = '2026-05-01T12:00:00.000Z';
const SID = asSessionId('7ab5-0000-4000-8000-000000000001');
const header = sessionHeader(SID, TIME, '/test');
const place = (id: string, parentId: string | null) => ({ id: asEntryId(id), parentId: parentId === null ? null : asEntryId(parentId), timestamp: TIME });
const msg = (id: string, parentId: string | null): JournalEntry => userMessageEntry(`message ${id}`, place(id, parentId));
const desk = (id: string, parentId: string | null, basil: number): JournalEntry =>
  customEntry(SEED_DESK_CUSTOM_TYPE, { version: 1, agentEnabled: false, quantities: { 'basil-genovese': basil } }, place(id, parentId));

const databases = freshDatabases('store-tabs');

afterEach(() => {
  vi.restoreAllMocks();
});

/** Two stores on one fresh database, with the same Web Locks (or none). */
async function twoTabs(options: StoreOptions = { locks: new FakeLocks() }) {
  const name = databases.nextName();
  const a = await databases.openStore(name, options);
  const b = await databases.openStore(name, options);
  return { a, b, name };
}

/** Counts the reads IndexedDB serves while `work` runs (gets and cursors, on stores and indexes). */
async function readsDuring(work: () => Promise<unknown>): Promise<number> {
  const spies = [
    vi.spyOn(IDBObjectStore.prototype, 'get'),
    vi.spyOn(IDBObjectStore.prototype, 'openCursor'),
    vi.spyOn(IDBIndex.prototype, 'get'),
    vi.spyOn(IDBIndex.prototype, 'openCursor'),
  ];
  await work();
  const count = spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
  for (const spy of spies) spy.mockRestore();
  return count;
}

function commitOn(store: JournalStore, leaf: EntryId | null, entry: JournalEntry, seen: BranchState[] = []) {
  return store.commitChecked(SID, leaf, (state) => {
    seen.push(state);
    return { append: true, entries: [entry] };
  });
}

describe('JournalStore: the writer lease between two tabs', () => {
  it('a commit on the head this store wrote this tenure reads nothing; without Web Locks it reads the head', async () => {
    const leased = await twoTabs();
    await leased.a.createSession(header, [msg('m0000001', null)]);
    await commitOn(leased.a, asEntryId('m0000001'), desk('d0000001', 'm0000001', 1));
    expect(await readsDuring(() => commitOn(leased.a, asEntryId('d0000001'), desk('d0000002', 'd0000001', 2)))).toBe(0);

    const plain = await twoTabs({ locks: null });
    await plain.a.createSession(header, [msg('m0000001', null)]);
    await commitOn(plain.a, asEntryId('m0000001'), desk('d0000001', 'm0000001', 1));
    expect(await readsDuring(() => commitOn(plain.a, asEntryId('d0000001'), desk('d0000002', 'd0000001', 2)))).toBeGreaterThan(0);
  });

  it('after another tab wrote, the first write reads the head again and continues the tally after the other tab’s entries', async () => {
    const { a, b, name } = await twoTabs();
    await a.createSession(header, [msg('m0000001', null)]);
    await commitOn(a, asEntryId('m0000001'), desk('d0000001', 'm0000001', 1));
    await b.append(SID, asEntryId('d0000001'), [msg('b0000001', 'd0000001'), msg('b0000002', 'b0000001')]);
    const seen: BranchState[] = [];
    expect(await readsDuring(() => commitOn(a, asEntryId('d0000001'), desk('d0000002', 'd0000001', 2), seen))).toBeGreaterThan(0);
    expect(seen).toEqual([expect.objectContaining({ deskHead: 'd0000001', snapshot: { version: 1, agentEnabled: false, quantities: { 'basil-genovese': 1 } } })]);
    const journal = SessionJournal.fromEntries(header, await a.loadJournalEntries(SID));
    expect(journal.entries().map((entry) => entry.id)).toEqual(['m0000001', 'd0000001', 'b0000001', 'b0000002', 'd0000002']);
    expectDerivedFactsMatch(await readRaw(name, SID), journal);
    expect(await b.loadHead(SID)).toMatchObject({ entryCount: 5, seedDeskEntryCount: 2, lastEntry: expect.objectContaining({ id: 'd0000002' }) });
  });

  it('a session deleted and created again in another tab: the first tab decides on what is stored now, not on what it knew', async () => {
    const { a, b, name } = await twoTabs();
    await a.createSession(header, [msg('m0000001', null)]);
    await commitOn(a, asEntryId('m0000001'), desk('d0000001', 'm0000001', 1));
    // Tab b replaces the session: same ids, but d0000001 now holds 5 basil and sits under another root.
    await b.deleteSession(SID);
    await b.createSession(header, [msg('m0000009', null), desk('d0000001', 'm0000009', 5)]);
    const seen: BranchState[] = [];
    await commitOn(a, asEntryId('d0000001'), desk('d0000002', 'd0000001', 6), seen);
    expect(seen).toEqual([expect.objectContaining({ deskHead: 'd0000001', snapshot: { version: 1, agentEnabled: false, quantities: { 'basil-genovese': 5 } } })]);
    const journal = SessionJournal.fromEntries(header, await a.loadJournalEntries(SID));
    expect(journal.entries().map((entry) => entry.id)).toEqual(['m0000009', 'd0000001', 'd0000002']);
    expectDerivedFactsMatch(await readRaw(name, SID), journal);
    // And a leaf that only existed in the old session is refused.
    await expect(commitOn(a, asEntryId('m0000001'), msg('x0000001', 'm0000001'))).rejects.toThrow(/not in the stored journal/);
  });

  it.each([
    { mode: 'under the lease', options: (): StoreOptions => ({ locks: new FakeLocks() }) },
    { mode: 'without Web Locks', options: (): StoreOptions => ({ locks: null }) },
  ])('writes from both tabs at once ($mode): every one lands, the tally counts each entry once, the index matches a rebuild', async ({ options }) => {
    const { a, b, name } = await twoTabs(options());
    await a.createSession(header, [msg('r0000000', null)]);
    // Each tab grows its own branch off the root, one checked commit after another, both at once.
    const grow = async (store: JournalStore, tab: string) => {
      let leaf = asEntryId('r0000000');
      for (let i = 0; i < 15; i++) {
        const id = `${tab}${i.toString(16).padStart(7, '0')}`;
        await commitOn(store, leaf, i % 3 === 0 ? desk(id, leaf, i % 8) : msg(id, leaf));
        leaf = asEntryId(id);
      }
    };
    await Promise.all([grow(a, 'a'), grow(b, 'b')]);
    const journal = SessionJournal.fromEntries(header, await b.loadJournalEntries(SID));
    expect(journal.size).toBe(31);
    expectDerivedFactsMatch(await readRaw(name, SID), journal);
    expect(await a.countEntries(SID)).toBe(31);
  });
});
