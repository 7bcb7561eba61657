import { describe, expect, it } from 'vitest';
import { asEntryId, asSessionId, type EntryId } from './ids';
import { assistantMessageEntry, customEntry, labelEntry, sessionHeader, userMessageEntry, type JournalEntry } from './journal/entry';
import { SessionJournal } from './journal/journal';
import { deskIndexOf, foldDeskEntry, reconstructBranch, ROOT_DESK_INDEX, ROOT_LINK, stateOfIndex } from './reconstruct';
import { revisionOf } from './revision';
import { EMPTY_SNAPSHOT, SEED_DESK_CUSTOM_TYPE } from './snapshot';

const SID = asSessionId('9b2f4c1e-1111-4222-8333-444455556666');
const TIME = '2026-03-01T10:00:00.000Z';

/** Builds a linear chain of entries: each one hangs off the previous. */
function chain(...makers: ((place: { id: EntryId; parentId: EntryId | null; timestamp: string }) => JournalEntry)[]): JournalEntry[] {
  const out: JournalEntry[] = [];
  makers.forEach((make, i) => {
    out.push(make({ id: asEntryId(`e000000${i}`), parentId: out.at(-1)?.id ?? null, timestamp: TIME }));
  });
  return out;
}

const user = (text: string) => (place: { id: EntryId; parentId: EntryId | null; timestamp: string }) => userMessageEntry(text, place);
const assistant = (text: string) => (place: { id: EntryId; parentId: EntryId | null; timestamp: string }) =>
  assistantMessageEntry([{ type: 'text', text }], place);
const desk = (data: unknown) => (place: { id: EntryId; parentId: EntryId | null; timestamp: string }) =>
  customEntry(SEED_DESK_CUSTOM_TYPE, data, place);
const snap = (quantities: Record<string, unknown>, agentEnabled = false) => ({ version: 1, agentEnabled, quantities });
const BAD = { version: 2, agentEnabled: false, quantities: {} };

describe('revisionOf', () => {
  it('is exactly <sessionId>:root before any seed desk entry', () => {
    expect(revisionOf(SID, null)).toBe(`${SID}:root`);
  });

  it('is exactly <sessionId>:<entryId> after one', () => {
    expect(revisionOf(SID, asEntryId('a1b2c3d4'))).toBe(`${SID}:a1b2c3d4`);
  });
});

describe('reconstructBranch', () => {
  it('gives the empty desk at <sid>:root for an empty branch', () => {
    expect(reconstructBranch(SID, [])).toEqual({ ok: true, sessionId: SID, revision: `${SID}:root`, deskHead: null, snapshot: EMPTY_SNAPSHOT });
  });

  it('ignores conversation: the revision stays <sid>:root', () => {
    const branch = chain(user('hello'), assistant('hi'), user('how many basil?'));
    expect(reconstructBranch(SID, branch)).toMatchObject({ ok: true, revision: `${SID}:root`, deskHead: null, snapshot: EMPTY_SNAPSHOT });
  });

  it('lets the last seed desk entry win, and its id is the revision', () => {
    const branch = chain(desk(snap({ 'basil-genovese': 2 })), user('more'), desk(snap({ 'basil-genovese': 5 }, true)), assistant('done'));
    expect(reconstructBranch(SID, branch)).toEqual({
      ok: true,
      sessionId: SID,
      revision: `${SID}:e0000002`,
      deskHead: 'e0000002',
      snapshot: { version: 1, agentEnabled: true, quantities: { 'basil-genovese': 5 } },
    });
  });

  it('ignores other custom types and custom_message entries, whatever their data', () => {
    const branch = chain(
      desk(snap({ 'bean-scarlet': 1 })),
      (place) => customEntry('other-extension', { junk: true }, place),
      (place) => ({ type: 'custom_message', customType: SEED_DESK_CUSTOM_TYPE, content: 'x', display: true, ...place }) as JournalEntry,
    );
    expect(reconstructBranch(SID, branch)).toMatchObject({ ok: true, revision: `${SID}:e0000000`, snapshot: { quantities: { 'bean-scarlet': 1 } } });
  });

  it('makes the branch corrupt when one seed desk entry is invalid, even when a later valid one follows', () => {
    const branch = chain(desk(snap({ 'basil-genovese': 2 })), desk({ ...snap({}), extra: 1 }), user('again'), desk(snap({ 'basil-genovese': 1 })));
    const state = reconstructBranch(SID, branch);
    expect(state.ok).toBe(false);
    if (state.ok) return;
    expect(state.corruptEntryId).toBe('e0000001');
    expect(state.problem).toContain('extra');
    // The revision still moves with every seed desk entry, so a repaired branch gets a new one.
    expect(state.revision).toBe(`${SID}:e0000003`);
    expect(state.deskHead).toBe('e0000003');
    expect('snapshot' in state).toBe(false);
  });

  it('makes the branch corrupt when the last entry is the invalid one', () => {
    const state = reconstructBranch(SID, chain(desk(snap({ 'basil-genovese': 2 })), desk(BAD)));
    expect(state).toMatchObject({ ok: false, corruptEntryId: 'e0000001', revision: `${SID}:e0000001` });
  });

  it('reports the first corrupt entry when there are several', () => {
    const state = reconstructBranch(SID, chain(desk(BAD), desk(snap({ tomato: 1 })), desk(snap({}))));
    expect(state).toMatchObject({ ok: false, corruptEntryId: 'e0000000' });
  });

  it.each([
    ['null data', null],
    ['an unknown id', snap({ tomato: 1 })],
    ['too many packets', snap({ 'marigold-french': 4 })],
    ['a fractional count', snap({ 'bean-scarlet': 0.5 })],
    ['a string flag', { version: 1, agentEnabled: 'yes', quantities: {} }],
  ])('treats %s as corrupt', (_label, data) => {
    expect(reconstructBranch(SID, chain(desk(data))).ok).toBe(false);
  });
});

describe('foldDeskEntry', () => {
  it('keeps a corrupt link corrupt, whatever comes next', () => {
    const [bad, good] = chain(desk(BAD), desk(snap({})));
    const corrupt = foldDeskEntry(ROOT_LINK, bad!);
    expect(corrupt.ok).toBe(false);
    expect(foldDeskEntry(corrupt, good!)).toBe(corrupt);
  });

  it('replaces a valid link with the entry’s snapshot', () => {
    const [entry] = chain(desk(snap({ 'bean-scarlet': 3 }, true)));
    expect(foldDeskEntry(ROOT_LINK, entry!)).toEqual({ ok: true, snapshot: { version: 1, agentEnabled: true, quantities: { 'bean-scarlet': 3 } } });
  });
});

describe('deskIndexOf (the one derivation of the desk index)', () => {
  it('passes the parent’s index on unchanged (the same object) for anything but a seed desk entry', () => {
    const [message, reply] = chain(user('hello'), assistant('hi'));
    expect(deskIndexOf(message!, ROOT_DESK_INDEX)).toBe(ROOT_DESK_INDEX);
    const index = { deskHead: asEntryId('d0000001'), deskLink: { ok: true as const, snapshot: EMPTY_SNAPSHOT } };
    expect(deskIndexOf(reply!, index)).toBe(index);
  });

  it('folded along a branch, gives the state the reference reconstruction gives at every entry', () => {
    const branch = chain(user('a'), desk(snap({ 'basil-genovese': 2 })), assistant('b'), desk(BAD), desk(snap({})), user('c'));
    let index = ROOT_DESK_INDEX;
    branch.forEach((entry, at) => {
      index = deskIndexOf(entry, index);
      expect(stateOfIndex(SID, index)).toEqual(reconstructBranch(SID, branch.slice(0, at + 1)));
    });
  });
});

describe('branches of one journal', () => {
  let n = 0;
  const at = (j: SessionJournal) => ({ id: asEntryId(`b${String(n++).padStart(7, '0')}`), parentId: j.leafId, timestamp: TIME });
  const add = (j: SessionJournal, entry: JournalEntry): EntryId => (j.append(entry), entry.id);

  function tree() {
    const j = SessionJournal.empty(sessionHeader(SID, TIME, '/lab'));
    const u1 = add(j, userMessageEntry('reserve two basil', at(j)));
    const d1 = add(j, customEntry(SEED_DESK_CUSTOM_TYPE, snap({ 'basil-genovese': 2 }), at(j)));
    const a1 = add(j, assistantMessageEntry([{ type: 'text', text: 'ok' }], at(j)));
    j.moveLeaf(u1);
    const bad = add(j, customEntry(SEED_DESK_CUSTOM_TYPE, BAD, at(j)));
    const afterBad = add(j, customEntry(SEED_DESK_CUSTOM_TYPE, snap({ 'basil-genovese': 1 }), at(j)));
    add(j, labelEntry(d1, 'first plan', at(j)));
    return { j, u1, d1, a1, bad, afterBad };
  }

  it('corruption on a sibling branch does not touch this branch', () => {
    const { j, a1, afterBad } = tree();
    expect(reconstructBranch(SID, j.branch(a1))).toMatchObject({ ok: true, snapshot: { quantities: { 'basil-genovese': 2 } } });
    expect(reconstructBranch(SID, j.branch(afterBad))).toMatchObject({ ok: false });
  });

  it('the journal index agrees with the reference walk on every entry and on the leaf', () => {
    const { j } = tree();
    for (const entry of j.entries()) expect(j.state(entry.id)).toEqual(reconstructBranch(SID, j.branch(entry.id)));
    expect(j.state()).toEqual(reconstructBranch(SID, j.branch()));
    expect(j.state(null)).toEqual(reconstructBranch(SID, []));
  });

  it('siblings have different revisions, and the shared ancestor keeps <sid>:root', () => {
    const { j, u1, a1, afterBad } = tree();
    expect(j.revision(a1)).not.toBe(j.revision(afterBad));
    expect(j.revision(u1)).toBe(`${SID}:root`);
  });
});
