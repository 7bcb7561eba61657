import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asEntryId, asSessionId, type EntryId } from '../ids';
import { SEED_DESK_CUSTOM_TYPE } from '../snapshot';
import { assistantMessageEntry, customEntry, sessionHeader, userMessageEntry, type JournalEntry } from './entry';
import { compareBranches, findForkPoint } from './compare';
import { SessionJournal } from './journal';
import { JournalError } from './journalError';

const SID = asSessionId('0f1e2d3c-aaaa-4bbb-8ccc-ddddeeeeffff');
const HEADER = sessionHeader(SID, '2026-05-01T12:00:00.000Z', '/lab');
const TIME = '2026-05-01T12:00:00.000Z';
const id = (value: string): EntryId => asEntryId(value);
const place = (entryId: string, parentId: string | null) => ({ id: id(entryId), parentId: parentId === null ? null : id(parentId), timestamp: TIME });
const user = (entryId: string, parentId: string | null, text = entryId): JournalEntry => userMessageEntry(text, place(entryId, parentId));
const assistant = (entryId: string, parentId: string | null, text = entryId): JournalEntry =>
  assistantMessageEntry([{ type: 'text', text }], place(entryId, parentId));
const desk = (entryId: string, parentId: string | null, quantities: Record<string, number>, agentEnabled = false): JournalEntry =>
  customEntry(SEED_DESK_CUSTOM_TYPE, { version: 1, agentEnabled, quantities }, place(entryId, parentId));
const journalOf = (entries: readonly JournalEntry[]) => SessionJournal.fromEntries(HEADER, entries);

/**
 * root ─ a1 ─ d0 (basil 2) ─┬─ left: u-l ─ d-l (marigold 3, agent on) ─ a-l
 *                           └─ right: u-r ─ d-r (marigold 3) ─ a-r ─ d-r2 (basil 1, marigold 3)
 * plus an orphan chain o1 ─ o2 under a missing parent.
 */
const lesson = journalOf([
  user('root', null, 'plan the bed'),
  assistant('a1', 'root', 'sure'),
  desk('d0', 'a1', { 'basil-genovese': 2 }),
  user('u-l', 'd0', 'take the marigolds'),
  desk('d-l', 'u-l', { 'basil-genovese': 2, 'marigold-french': 3 }, true),
  assistant('a-l', 'd-l', 'held'),
  user('u-r', 'd0', 'take the marigolds too'),
  desk('d-r', 'u-r', { 'basil-genovese': 2, 'marigold-french': 3 }),
  assistant('a-r', 'd-r', 'held too'),
  desk('d-r2', 'a-r', { 'basil-genovese': 1, 'marigold-french': 3 }),
  user('o1', 'missing0', 'orphan'),
  user('o2', 'o1', 'orphan child'),
]);

describe('findForkPoint', () => {
  it('gives the common parent of siblings', () => {
    expect(findForkPoint(lesson, id('u-l'), id('u-r'))).toBe('d0');
    expect(findForkPoint(lesson, id('a-l'), id('d-r2'))).toBe('d0');
  });

  it('gives the ancestor of an ancestor/descendant pair, either way round, and an entry itself', () => {
    expect(findForkPoint(lesson, id('a1'), id('d-r2'))).toBe('a1');
    expect(findForkPoint(lesson, id('d-r2'), id('a1'))).toBe('a1');
    expect(findForkPoint(lesson, id('d-l'), id('d-l'))).toBe('d-l');
  });

  it('gives null for a null side and for different roots (an orphan shares nothing)', () => {
    expect(findForkPoint(lesson, null, id('a-l'))).toBeNull();
    expect(findForkPoint(lesson, id('a-l'), null)).toBeNull();
    expect(findForkPoint(lesson, null, null)).toBeNull();
    expect(findForkPoint(lesson, id('o2'), id('a-l'))).toBeNull();
    expect(findForkPoint(lesson, id('o2'), id('o1'))).toBe('o1');
  });

  it('throws for an unknown id', () => {
    expect(() => findForkPoint(lesson, id('nope0000'), id('a1'))).toThrow(JournalError);
    expect(() => compareBranches(lesson, id('a1'), id('nope0000'))).toThrow(/not found/);
  });

  it('agrees with comparing whole branches on random trees', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -2, max: 30 }), { minLength: 1, maxLength: 30 }), fc.nat(), fc.nat(), (parents, x, y) => {
        const entries = parents.map((p, i) => user(`e${i}`, p < 0 || i === 0 ? (p === -2 ? 'missing0' : null) : `e${p % i}`));
        const j = journalOf(entries);
        const left = entries[x % entries.length]?.id as EntryId;
        const right = entries[y % entries.length]?.id as EntryId;
        const a = j.branch(left).map((e) => e.id);
        const b = j.branch(right).map((e) => e.id);
        let common: EntryId | null = null;
        for (let i = 0; i < Math.min(a.length, b.length) && a[i] === b[i]; i++) common = a[i] as EntryId;
        expect(findForkPoint(j, left, right)).toBe(common);
        const result = compareBranches(j, left, right);
        const after = (path: EntryId[]) => path.slice(common === null ? 0 : path.indexOf(common) + 1);
        expect(result.leftSince.map((e) => e.id)).toEqual(after(a));
        expect(result.rightSince.map((e) => e.id)).toEqual(after(b));
      }),
      { seed: 20260501, numRuns: 200 },
    );
  });
});

describe('compareBranches', () => {
  it("shows the lesson's two-tab case: 3 marigold on each sibling, 6 of 3 packets combined", () => {
    const result = compareBranches(lesson, id('a-l'), id('a-r'));
    expect(result.forkPointId).toBe('d0');
    expect(result.left).toMatchObject({ tipId: 'a-l', revision: `${SID}:d-l`, ok: true, agentEnabled: true });
    expect(result.right).toMatchObject({ tipId: 'a-r', revision: `${SID}:d-r`, ok: true, agentEnabled: false });
    expect(result.left.corruptEntryId).toBeUndefined();
    expect(result.left.rows.find((r) => r.id === 'marigold-french')).toMatchObject({ reserved: 3, available: 0 });
    expect(result.right.rows.find((r) => r.id === 'marigold-french')).toMatchObject({ reserved: 3, available: 0 });
    expect(result.differences).toEqual([]);
    expect(result.grantDiffers).toBe(true);
    expect(result.combinedReserved).toEqual([
      { id: 'basil-genovese', reserved: 4, packets: 8 },
      { id: 'bean-scarlet', reserved: 0, packets: 5 },
      { id: 'marigold-french', reserved: 6, packets: 3 },
    ]);
  });

  it('lists what each side added since the fork point, root to tip', () => {
    const result = compareBranches(lesson, id('a-l'), id('d-r2'));
    expect(result.leftSince).toEqual([
      { id: 'u-l', type: 'message', role: 'user', text: 'take the marigolds', isSeedDesk: false },
      { id: 'd-l', type: 'custom', role: 'seed-desk', text: 'basil-genovese 2, marigold-french 3 · agent on', isSeedDesk: true },
      { id: 'a-l', type: 'message', role: 'assistant', text: 'held', isSeedDesk: false },
    ]);
    expect(result.rightSince.map((e) => e.id)).toEqual(['u-r', 'd-r', 'a-r', 'd-r2']);
    expect(result.differences).toEqual([{ id: 'basil-genovese', left: 2, right: 1 }]);
  });

  it('gives an empty "since" for the ancestor side of an ancestor/descendant pair', () => {
    const result = compareBranches(lesson, id('d0'), id('a-r'));
    expect(result.forkPointId).toBe('d0');
    expect(result.leftSince).toEqual([]);
    expect(result.rightSince.map((e) => e.id)).toEqual(['u-r', 'd-r', 'a-r']);
    expect(result.differences).toEqual([{ id: 'marigold-french', left: 0, right: 3 }]);
    expect(result.grantDiffers).toBe(false);
  });

  it('compares against the empty branch for a null side', () => {
    const result = compareBranches(lesson, null, id('d0'));
    expect(result.forkPointId).toBeNull();
    expect(result.left).toMatchObject({ tipId: null, revision: `${SID}:root`, ok: true, agentEnabled: false });
    expect(result.left.rows.every((r) => r.reserved === 0 && r.available === r.packets)).toBe(true);
    expect(result.leftSince).toEqual([]);
    expect(result.rightSince.map((e) => e.id)).toEqual(['root', 'a1', 'd0']);
    expect(result.differences).toEqual([{ id: 'basil-genovese', left: 0, right: 2 }]);
  });

  it('handles a corrupt side: empty rows, the corrupt entry named, no differences claimed', () => {
    const j = journalOf([
      user('root', null),
      desk('good', 'root', { 'marigold-french': 2 }, true),
      desk('bad', 'root', { 'marigold-french': 7 }),
      assistant('after-bad', 'bad'),
    ]);
    const result = compareBranches(j, id('good'), id('after-bad'));
    expect(result.forkPointId).toBe('root');
    expect(result.right).toMatchObject({ tipId: 'after-bad', revision: `${SID}:bad`, ok: false, agentEnabled: false, corruptEntryId: 'bad' });
    expect(result.right.problem).toMatch(/marigold-french/);
    expect(result.right.rows.every((r) => r.reserved === 0)).toBe(true);
    expect(result.rightSince).toEqual([
      { id: 'bad', type: 'custom', role: 'seed-desk', text: 'invalid snapshot', isSeedDesk: true },
      { id: 'after-bad', type: 'message', role: 'assistant', text: 'after-bad', isSeedDesk: false },
    ]);
    expect(result.differences).toEqual([]);
    expect(result.grantDiffers).toBe(false);
    expect(result.combinedReserved.find((c) => c.id === 'marigold-french')).toEqual({ id: 'marigold-french', reserved: 2, packets: 3 });
  });
});
