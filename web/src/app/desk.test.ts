/**
 * The desk as the worker last reported it, another tab's appends noted as facts, and the one
 * notice after a reload that put the leaf somewhere else than where the learner stood.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { leafReturnNotice } from '../protocol/leafNotice';
import { Desk } from './desk.svelte';
import { FactLog } from './facts.svelte';
import { changed, FakeConnection, hostView } from './fakeConnection.testkit';
import { MemoryStorage, refusingStorage, stubStorage } from './pageGlobals.testkit';
import { until, viewOf } from './viewOf.testkit.svelte';

const MEMO_KEY = 'seed-desk:leaf-memo';

afterEach(() => {
  vi.unstubAllGlobals();
});

function deskOn(fake: FakeConnection): { desk: Desk; facts: FactLog } {
  const facts = new FactLog();
  return { desk: new Desk(fake.connection, facts), facts };
}

describe('Desk: the view', () => {
  it('shows nothing until the session opens, then the view every answer carries', async () => {
    stubStorage('sessionStorage');
    const fake = new FakeConnection();
    const { desk } = deskOn(fake);
    const shown = viewOf(() => desk.view?.revision ?? 'opening');
    expect(desk.view).toBeNull();
    expect(desk.seedDeskEntryCount).toBe(0);

    await fake.open(hostView({ revision: 'r1', seedDeskEntryCount: 2 }));
    expect(desk.view?.rows.map((row) => row.id)).toEqual(['basil-genovese', 'bean-scarlet', 'marigold-french']);
    expect(desk.seedDeskEntryCount).toBe(2);

    fake.answerWith('navigate', { result: null, changes: changed(hostView({ revision: 'r2', seedDeskEntryCount: 2 })) });
    await fake.connection.call({ type: 'navigate', target: { by: 'id', id: 'entry-1' } });
    expect(shown.now()).toBe('r2');
    expect(shown.shown).toEqual(['opening', 'r1', 'r2']);
    shown.stop();
  });

  it('another tab\'s append is a fact; the page\'s own answers and the session list are not', async () => {
    stubStorage('sessionStorage');
    const fake = new FakeConnection();
    const { desk, facts } = deskOn(fake);
    await fake.open(hostView({ entryCount: 3 }));
    fake.worker.push(changed(hostView({ entryCount: 4 })), 'sessions');
    expect(facts.facts).toEqual([]);

    fake.worker.push(changed(hostView({ entryCount: 5, seedDeskEntryCount: 1 })), 'foreign');
    expect(desk.view?.entryCount).toBe(5);
    expect(desk.seedDeskEntryCount).toBe(1);
    expect(facts.facts).toEqual([{ kind: 'foreign-append', seq: 1, extension: 'shipped' }]);
  });
});

describe('Desk: after a reload', () => {
  it('keeps where the leaf is, and why it is off the last entry, for this tab (sessionStorage)', async () => {
    const storage = new MemoryStorage();
    stubStorage('sessionStorage', storage);
    const fake = new FakeConnection();
    deskOn(fake);
    await fake.open(hostView({ leafId: 'entry-3', transientLeaf: true, leafBehind: { navigated: true, foreignEntryId: null } }));
    expect(JSON.parse(storage.getItem(MEMO_KEY) ?? 'null')).toEqual({ sessionId: 'session-1', leafId: 'entry-3', behind: { navigated: true, foreignEntryId: null } });
  });

  it('writes the memo only while the leaf is off the last entry, and once more when it is back on it', async () => {
    const storage = new MemoryStorage();
    stubStorage('sessionStorage', storage);
    const writes = vi.spyOn(storage, 'setItem');
    const fake = new FakeConnection();
    deskOn(fake);
    await fake.open(hostView({ leafId: 'entry-3' }));
    expect(writes).toHaveBeenCalledTimes(1);
    fake.worker.push(changed(hostView({ leafId: 'entry-2', transientLeaf: true, leafBehind: { navigated: true, foreignEntryId: null } })), 'sessions');
    expect(JSON.parse(storage.getItem(MEMO_KEY) ?? 'null')).toEqual({ sessionId: 'session-1', leafId: 'entry-2', behind: { navigated: true, foreignEntryId: null } });
    fake.worker.push(changed(hostView({ leafId: 'entry-4' })), 'sessions');
    expect(JSON.parse(storage.getItem(MEMO_KEY) ?? 'null')).toEqual({ sessionId: 'session-1', leafId: 'entry-4', behind: null });
    expect(writes).toHaveBeenCalledTimes(3);
    // Appends on the last entry (every Confirm): nothing to remember, nothing written.
    fake.worker.push(changed(hostView({ leafId: 'entry-5' })), 'sessions');
    fake.worker.push(changed(hostView({ leafId: 'entry-6' })), 'sessions');
    expect(writes).toHaveBeenCalledTimes(3);
  });

  it('says once why the leaf moved: the learner\'s move appended nothing', async () => {
    const storage = new MemoryStorage();
    stubStorage('sessionStorage', storage);
    storage.setItem(MEMO_KEY, JSON.stringify({ sessionId: 'session-1', leafId: 'entry-3', behind: { navigated: true, foreignEntryId: null } }));
    const fake = new FakeConnection();
    const { desk } = deskOn(fake);
    await fake.open(hostView({ leafId: 'entry-9' }));
    await until(() => desk.reloadNotice !== null);
    expect(desk.reloadNotice).toBe(leafReturnNotice('reload', { navigated: true, foreignEntryId: null }, 'entry-3', 'entry-9'));
    expect(desk.reloadNotice).toBe('After the reload: the leaf is on the last appended entry (entry-9), not on entry-3 where you stood. Your move to entry-3 appended nothing, so it did not survive.');
  });

  it('names another tab\'s append when that is why', async () => {
    const storage = new MemoryStorage();
    stubStorage('sessionStorage', storage);
    storage.setItem(MEMO_KEY, JSON.stringify({ sessionId: 'session-1', leafId: 'entry-3', behind: { navigated: false, foreignEntryId: 'entry-4' } }));
    const fake = new FakeConnection();
    const { desk } = deskOn(fake);
    await fake.open(hostView({ leafId: 'entry-4' }));
    await until(() => desk.reloadNotice !== null);
    expect(desk.reloadNotice).toContain('Another tab appended entry-4 after that');
  });

  it.each([
    ['the leaf is where it was', { sessionId: 'session-1', leafId: 'entry-9', behind: { navigated: true, foreignEntryId: null } }],
    ['the leaf was on the last entry', { sessionId: 'session-1', leafId: 'entry-3', behind: null }],
    ['it was another session', { sessionId: 'session-0', leafId: 'entry-3', behind: { navigated: true, foreignEntryId: null } }],
    ['the memo is not one', { leafId: 'entry-3' }],
  ])('says nothing when %s', async (_case, memo) => {
    const storage = new MemoryStorage();
    stubStorage('sessionStorage', storage);
    storage.setItem(MEMO_KEY, JSON.stringify(memo));
    const fake = new FakeConnection();
    const { desk } = deskOn(fake);
    await fake.open(hostView({ leafId: 'entry-9' }));
    // The notice's wording is a dynamic import: let every import started settle before looking.
    await vi.dynamicImportSettled();
    expect(desk.reloadNotice).toBeNull();
  });

  it('works where storage is refused: the view arrives, nothing is said', async () => {
    stubStorage('sessionStorage', refusingStorage);
    const fake = new FakeConnection();
    const { desk } = deskOn(fake);
    await fake.open(hostView({ leafId: 'entry-2' }));
    await vi.dynamicImportSettled();
    expect(desk.view?.leafId).toBe('entry-2');
    expect(desk.reloadNotice).toBeNull();
  });
});
