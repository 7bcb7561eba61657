import { describe, expect, it } from 'vitest';
import { decideGrant, decideReservation, type Decision } from '../desk';
import { asEntryId, asSessionId, seededIdSource, type EntryId, type SessionId } from '../ids';
import { reconstructBranch } from '../reconstruct';
import { deskRows, SEED_DESK_CUSTOM_TYPE } from '../snapshot';
import { assistantMessageEntry, customEntry, labelEntry, sessionHeader, userMessageEntry, type JournalEntry } from './entry';
import { SessionJournal } from './journal';
import { JournalError } from './journalError';

const SID = asSessionId('0f1e2d3c-aaaa-4bbb-8ccc-ddddeeeeffff');
const TIME = '2026-05-01T12:00:00.000Z';

let counter = 0;
const nextId = (): EntryId => asEntryId(`j${String(counter++).padStart(7, '0')}`);
const place = (j: SessionJournal) => ({ id: nextId(), parentId: j.leafId, timestamp: TIME });

const fresh = (id: SessionId = SID) => SessionJournal.empty(sessionHeader(id, TIME, '/lab'));
const add = (j: SessionJournal, entry: JournalEntry): EntryId => (j.append(entry), entry.id);
const user = (j: SessionJournal, text: string) => add(j, userMessageEntry(text, place(j)));
const assistant = (j: SessionJournal, text: string) => add(j, assistantMessageEntry([{ type: 'text', text }], place(j)));
const desk = (j: SessionJournal, data: unknown) => add(j, customEntry(SEED_DESK_CUSTOM_TYPE, data, place(j)));
const label = (j: SessionJournal, target: EntryId, text: string | undefined) => add(j, labelEntry(target, text, place(j)));

/** The extension's commit path: only a successful decision appends, exactly one entry. */
function commit(j: SessionJournal, decision: Decision): EntryId {
  if (!decision.ok) throw new Error(`refused: ${decision.refusal.code}: ${decision.refusal.message}`);
  return desk(j, decision.snapshot);
}
const humanReserve = (j: SessionJournal, id: string, packets: number, action: 'reserve' | 'release' = 'reserve', expectedRevision: string = j.revision()) =>
  decideReservation(j.state(), { action, id, packets, expectedRevision, actor: 'human' }, { interactive: true });
const grant = (j: SessionJournal, enabled: boolean) => decideGrant(j.state(), { enabled, expectedRevision: j.revision() }, { interactive: true });

function row(j: SessionJournal, id: string, at: EntryId | null = j.leafId) {
  const state = j.state(at);
  if (!state.ok) throw new Error(`corrupt: ${state.problem}`);
  const found = deskRows(state.snapshot).find((r) => r.id === id);
  return { available: found?.available, reserved: found?.reserved };
}

function expectIndexMatchesReference(j: SessionJournal): void {
  const rebuilt = SessionJournal.fromEntries(j.header, j.entries());
  for (const entry of [...j.entries(), null]) {
    const id = entry?.id ?? null;
    const reference = reconstructBranch(j.sessionId, j.branch(id));
    expect(j.state(id)).toEqual(reference);
    expect(rebuilt.state(id)).toEqual(reference);
    expect(j.revision(id)).toBe(reference.revision);
  }
}

describe('appending and the leaf', () => {
  it('starts empty with a null leaf, an empty branch and the root revision', () => {
    const j = fresh();
    expect(j.leafId).toBeNull();
    expect(j.size).toBe(0);
    expect(j.branch()).toEqual([]);
    expect(j.revision()).toBe(`${SID}:root`);
    expect(j.sessionId).toBe(SID);
  });

  it('advances the leaf on every append and chains parents', () => {
    const j = fresh();
    const a = user(j, 'a');
    const b = assistant(j, 'b');
    expect(j.leafId).toBe(b);
    expect(j.branch().map((e) => e.id)).toEqual([a, b]);
    expect(j.get(b)?.parentId).toBe(a);
    expect(j.childrenOf(null)).toEqual([a]);
    expect(j.childrenOf(a)).toEqual([b]);
    expect([j.seqOf(a), j.seqOf(b), j.depthOf(a), j.depthOf(b)]).toEqual([0, 1, 0, 1]);
    expect(j.has(a)).toBe(true);
    expect(j.has('nope')).toBe(false);
  });

  it('refuses an entry that does not hang off the leaf, a duplicate id, and an unknown target', () => {
    const j = fresh();
    const a = user(j, 'a');
    expect(() => j.append(userMessageEntry('x', { id: nextId(), parentId: null, timestamp: TIME }))).toThrow(JournalError);
    expect(() => j.append(userMessageEntry('x', { id: a, parentId: a, timestamp: TIME }))).toThrow(/Duplicate/);
    expect(() => j.moveLeaf(asEntryId('missing0'))).toThrow(/not found/);
    expect(() => j.navigateTo(asEntryId('missing0'))).toThrow(/not found/);
    expect(j.size).toBe(1);
    expect(j.leafId).toBe(a);
  });

  it('branch(fromId) gives the path above any entry; an unknown id gives []', () => {
    const j = fresh();
    const a = user(j, 'a');
    const b = assistant(j, 'b');
    user(j, 'c');
    expect(j.branch(b).map((e) => e.id)).toEqual([a, b]);
    expect(j.branch(asEntryId('missing0'))).toEqual([]);
    expect(j.branch(null)).toEqual([]);
  });
});

describe('revision rules', () => {
  it('is exactly <sessionId>:root, then <sessionId>:<entryId> of the latest seed desk entry', () => {
    const j = fresh();
    user(j, 'hi');
    expect(j.revision()).toBe(`${SID}:root`);
    const d = commit(j, humanReserve(j, 'basil-genovese', 2));
    expect(j.revision()).toBe(`${SID}:${d}`);
  });

  it('conversation appends do not change it; a seed desk append does', () => {
    const j = fresh();
    const d = commit(j, humanReserve(j, 'basil-genovese', 2));
    const rev = j.revision();
    user(j, 'thanks');
    assistant(j, 'you are welcome');
    add(j, customEntry('another-extension', { anything: 1 }, place(j)));
    label(j, d, 'two basil');
    expect(j.revision()).toBe(rev);
    commit(j, grant(j, true));
    expect(j.revision()).not.toBe(rev);
  });

  it('a grant change makes a new revision even when quantities are unchanged', () => {
    const j = fresh();
    const first = j.revision();
    commit(j, grant(j, true));
    const second = j.revision();
    commit(j, grant(j, true));
    expect(new Set([first, second, j.revision()]).size).toBe(3);
  });

  it('sibling branches with equal state still have different revisions', () => {
    const j = fresh();
    const u = user(j, 'start');
    const left = commit(j, humanReserve(j, 'bean-scarlet', 1));
    j.moveLeaf(u);
    const right = commit(j, humanReserve(j, 'bean-scarlet', 1));
    expect(j.state(left)).toMatchObject({ snapshot: { quantities: { 'bean-scarlet': 1 } } });
    expect(j.state(right)).toMatchObject({ snapshot: { quantities: { 'bean-scarlet': 1 } } });
    expect(j.revision(left)).not.toBe(j.revision(right));
  });

  it('a new session has a different revision for the same (empty) state', () => {
    const other = fresh(asSessionId('another-session'));
    expect(other.revision()).toBe('another-session:root');
    expect(other.revision()).not.toBe(fresh().revision());
  });
});

describe('reconstruction through the journal', () => {
  it('last wins on the branch', () => {
    const j = fresh();
    commit(j, humanReserve(j, 'basil-genovese', 2));
    commit(j, humanReserve(j, 'basil-genovese', 3));
    commit(j, humanReserve(j, 'basil-genovese', 1, 'release'));
    expect(row(j, 'basil-genovese')).toEqual({ available: 4, reserved: 4 });
  });

  it('one corrupt entry makes the branch corrupt even when a later valid one follows; a sibling is unaffected', () => {
    const j = fresh();
    const u = user(j, 'start');
    const good = commit(j, humanReserve(j, 'basil-genovese', 2));
    j.moveLeaf(u);
    const bad = desk(j, { version: 1, agentEnabled: false, quantities: { 'basil-genovese': 2.5 } });
    desk(j, { version: 1, agentEnabled: false, quantities: {} });
    expect(j.state()).toMatchObject({ ok: false, corruptEntryId: bad });
    expect(j.state(good)).toMatchObject({ ok: true, snapshot: { quantities: { 'basil-genovese': 2 } } });
    // The corrupt branch refuses every change; the sibling still works.
    expect(humanReserve(j, 'basil-genovese', 1)).toMatchObject({ ok: false, refusal: { code: 'corrupt-state' } });
    expect(grant(j, true)).toMatchObject({ ok: false, refusal: { code: 'corrupt-state' } });
    j.moveLeaf(good);
    expect(humanReserve(j, 'basil-genovese', 1).ok).toBe(true);
    expectIndexMatchesReference(j);
  });

  it('state() (index) equals reconstructBranch(sessionId, branch()) (reference walk) on a branching tree', () => {
    const j = fresh();
    const u1 = user(j, 'one');
    commit(j, humanReserve(j, 'basil-genovese', 2));
    const a1 = assistant(j, 'ok');
    commit(j, grant(j, true));
    j.moveLeaf(u1);
    desk(j, { version: 1, agentEnabled: false, quantities: { tomato: 1 } });
    user(j, 'after corruption');
    j.moveLeaf(a1);
    commit(j, humanReserve(j, 'bean-scarlet', 5));
    j.moveLeaf(null);
    user(j, 'second root');
    commit(j, humanReserve(j, 'marigold-french', 3));
    expect(j.state()).toEqual(reconstructBranch(SID, j.branch()));
    expectIndexMatchesReference(j);
  });
});

describe('the lesson’s branch observations', () => {
  /** hello → hi → "/seeds reserve basil-genovese 2" → desk(2 basil) → "Reserved." */
  function lesson() {
    const j = fresh();
    const hello = user(j, 'hello');
    const hi = assistant(j, 'hi');
    const ask = user(j, '/seeds reserve basil-genovese 2');
    const reserved = commit(j, humanReserve(j, 'basil-genovese', 2));
    const done = assistant(j, 'Reserved two basil packets.');
    return { j, hello, hi, ask, reserved, done };
  }

  it('reserve 2 basil: 6 available, 2 reserved', () => {
    const { j } = lesson();
    expect(row(j, 'basil-genovese')).toEqual({ available: 6, reserved: 2 });
  });

  it('a refused or cancelled change appends nothing', () => {
    const { j } = lesson();
    const size = j.size;
    const rev = j.revision();
    const refused = humanReserve(j, 'basil-genovese', 7);
    expect(refused).toMatchObject({ ok: false, refusal: { code: 'insufficient-availability' } });
    // A cancelled dialog never reaches commit: nothing to append either.
    expect(j.size).toBe(size);
    expect(j.revision()).toBe(rev);
    expect(row(j, 'basil-genovese')).toEqual({ available: 6, reserved: 2 });
  });

  it('a change during the dialog stales the waiting one (the confirmation race)', () => {
    const { j } = lesson();
    const seenBeforeDialog = j.revision();
    commit(j, humanReserve(j, 'basil-genovese', 1)); // another action while the dialog is open
    const waiting = humanReserve(j, 'bean-scarlet', 1, 'reserve', seenBeforeDialog);
    expect(waiting).toMatchObject({ ok: false, refusal: { code: 'stale-revision' } });
    expect(row(j, 'bean-scarlet')).toEqual({ available: 5, reserved: 0 });
  });

  it('navigateTo the user message before the reservation rewinds: leaf on its parent, its text back, 0 reserved', () => {
    const { j, hi, ask } = lesson();
    expect(j.navigateTo(ask)).toEqual({ leafId: hi, editorText: '/seeds reserve basil-genovese 2' });
    expect(j.leafId).toBe(hi);
    expect(row(j, 'basil-genovese')).toEqual({ available: 8, reserved: 0 });
    expect(j.revision()).toBe(`${SID}:root`);
  });

  it('moveLeaf before the reservation shows 0 reserved too', () => {
    const { j, ask } = lesson();
    j.moveLeaf(ask);
    expect(row(j, 'basil-genovese')).toEqual({ available: 8, reserved: 0 });
  });

  it('navigateTo the root user message puts the leaf on null', () => {
    const { j, hello } = lesson();
    expect(j.navigateTo(hello)).toEqual({ leafId: null, editorText: 'hello' });
    expect(j.leafId).toBeNull();
    expect(j.branch()).toEqual([]);
  });

  it('navigateTo an assistant message makes it the leaf, with no editor text', () => {
    const { j, hi, done } = lesson();
    expect(j.navigateTo(hi)).toEqual({ leafId: hi });
    expect(j.leafId).toBe(hi);
    expect(j.navigateTo(done)).toEqual({ leafId: done });
    expect(row(j, 'basil-genovese')).toEqual({ available: 6, reserved: 2 });
  });

  it('navigateTo a seed desk entry makes it the leaf', () => {
    const { j, reserved } = lesson();
    expect(j.navigateTo(reserved)).toEqual({ leafId: reserved });
  });

  it('a sibling branch holds its own count (1) while the original keeps 2, and the sibling’s revision is stale on the original', () => {
    const { j, ask, done } = lesson();
    j.navigateTo(ask);
    user(j, '/seeds reserve basil-genovese 1');
    const sibling = commit(j, humanReserve(j, 'basil-genovese', 1));
    const siblingRevision = j.revision();
    expect(siblingRevision).toBe(`${SID}:${sibling}`);
    expect(row(j, 'basil-genovese')).toEqual({ available: 7, reserved: 1 });

    j.moveLeaf(done);
    expect(row(j, 'basil-genovese')).toEqual({ available: 6, reserved: 2 });
    expect(j.revision()).not.toBe(siblingRevision);
    const size = j.size;
    expect(humanReserve(j, 'basil-genovese', 1, 'reserve', siblingRevision)).toMatchObject({ ok: false, refusal: { code: 'stale-revision' } });
    expect(j.size).toBe(size);
    expectIndexMatchesReference(j);
  });

  it('reopen puts the leaf on the last appended entry; navigation that appended nothing is lost', () => {
    const { j, hi, ask } = lesson();
    j.navigateTo(ask);
    const sibling = user(j, 'another plan');
    j.moveLeaf(hi);
    expect(j.leafIsTransient()).toBe(true);
    j.reopen();
    expect(j.leafId).toBe(sibling);
    expect(j.leafId).toBe(j.lastAppendedId());
    expect(j.leafIsTransient()).toBe(false);
  });

  it('the reservation and its revision survive a reopen from the stored entries', () => {
    const { j } = lesson();
    const rev = j.revision();
    const reopened = SessionJournal.fromEntries(j.header, j.entries());
    expect(reopened.leafId).toBe(j.lastAppendedId());
    expect(reopened.revision()).toBe(rev);
    expect(row(reopened, 'basil-genovese')).toEqual({ available: 6, reserved: 2 });
  });

  it('a fresh session has nothing reserved and the agent off, with a different revision', () => {
    const { j } = lesson();
    commit(j, grant(j, true));
    const other = SessionJournal.empty(sessionHeader(asSessionId('b7c6d5e4-0000-4000-8000-000000000001'), TIME, '/lab'));
    const state = other.state();
    expect(state).toMatchObject({ ok: true, snapshot: { agentEnabled: false, quantities: {} } });
    expect(row(other, 'basil-genovese')).toEqual({ available: 8, reserved: 0 });
    expect(other.revision()).not.toBe(j.revision());
    expect(other.revision()).toBe('b7c6d5e4-0000-4000-8000-000000000001:root');
  });
});

describe('labels are global', () => {
  it('the last label wins across branches; an empty or absent label clears it', () => {
    const j = fresh();
    const u = user(j, 'start');
    const a = assistant(j, 'left');
    label(j, u, 'first');
    j.moveLeaf(u);
    assistant(j, 'right');
    label(j, u, 'second');
    j.moveLeaf(a);
    expect(j.labelOf(u)).toBe('second');
    label(j, u, '');
    expect(j.labelOf(u)).toBeUndefined();
    label(j, u, 'third');
    expect(j.labelOf(u)).toBe('third');
    label(j, u, undefined);
    expect(j.labelOf(u)).toBeUndefined();
    expect(j.allLabels().size).toBe(0);
  });

  it('labels come back after a rebuild from the entries', () => {
    const j = fresh();
    const u = user(j, 'start');
    label(j, u, 'kept');
    expect(SessionJournal.fromEntries(j.header, j.entries()).labelOf(u)).toBe('kept');
  });
});

describe('forkToNewSession', () => {
  function forked() {
    const j = fresh();
    const u = user(j, 'start');
    const d = commit(j, humanReserve(j, 'basil-genovese', 2));
    label(j, u, 'on path');
    const a = assistant(j, 'ok');
    j.moveLeaf(u);
    const off = assistant(j, 'other branch');
    label(j, off, 'off path');
    j.moveLeaf(a);
    const fork = j.forkToNewSession(seededIdSource(5));
    return { j, fork, u, d, a, off };
  }

  it('copies the path with the original ids into a new session that points back', () => {
    const { j, fork, u, d, a } = forked();
    expect(fork.sessionId).not.toBe(j.sessionId);
    // The host's kind of parentSession: the parent's file name, the name its export gets.
    expect(fork.header.parentSession).toBe(`${j.header.timestamp?.replace(/[:.]/g, '-')}_${j.sessionId}.jsonl`);
    expect(fork.header.type).toBe('session');
    expect(fork.header.version).toBe(3);
    expect(fork.header.cwd).toBe('/lab');
    const copied = fork.entries().filter((e) => e.type !== 'label');
    expect(copied.map((e) => e.id)).toEqual([u, d, a]);
    expect(copied.map((e) => e.parentId)).toEqual([null, u, d]);
    expect(j.size).toBe(6);
  });

  it('drops label entries and re-appends fresh ones only for labels on the path', () => {
    const { j, fork, u, off } = forked();
    const labels = fork.entries().filter((e) => e.type === 'label');
    expect(labels).toHaveLength(1);
    expect(labels[0]!['targetId']).toBe(u);
    expect(j.has(labels[0]!.id)).toBe(false);
    expect(fork.labelOf(u)).toBe('on path');
    expect(fork.labelOf(off)).toBeUndefined();
    expect(fork.leafId).toBe(labels[0]!.id);
  });

  it('gives the same state under a new revision', () => {
    const { j, fork, d } = forked();
    const original = j.state();
    const copy = fork.state();
    if (!original.ok || !copy.ok) throw new Error('corrupt');
    expect(copy.snapshot).toEqual(original.snapshot);
    expect(copy.revision).toBe(`${fork.sessionId}:${d}`);
    expect(copy.revision).not.toBe(original.revision);
    // The old revision is stale in the fork.
    expect(humanReserve(fork, 'basil-genovese', 1, 'reserve', original.revision)).toMatchObject({ ok: false, refusal: { code: 'stale-revision' } });
    expectIndexMatchesReference(fork);
  });

  it('forks from a given entry, and an empty fork from null', () => {
    const { j, u } = forked();
    expect(j.forkToNewSession(seededIdSource(6), u).entries().map((e) => e.id)).toContain(u);
    expect(j.forkToNewSession(seededIdSource(7), null).size).toBe(0);
  });
});

describe('fromEntries (reopen from storage)', () => {
  it('keeps an entry whose parent is unknown as a root', () => {
    const orphan = userMessageEntry('orphan', { id: asEntryId('orphan00'), parentId: asEntryId('gone0000'), timestamp: TIME });
    const j = SessionJournal.fromEntries(sessionHeader(SID, TIME, '/lab'), [orphan]);
    expect(j.childrenOf(null)).toEqual(['orphan00']);
    expect(j.branch().map((e) => e.id)).toEqual(['orphan00']);
    expect(j.depthOf('orphan00')).toBe(0);
  });

  it('refuses a duplicate id', () => {
    const a = userMessageEntry('a', { id: asEntryId('dup00000'), parentId: null, timestamp: TIME });
    expect(() => SessionJournal.fromEntries(sessionHeader(SID, TIME, '/lab'), [a, a])).toThrow(/Duplicate/);
  });

  // Host rule: its index holds every line before any walk, so a parent stored later is still the parent.
  it('links a parent stored later, as the host does, and the index and the walk agree', () => {
    const child = userMessageEntry('child', { id: asEntryId('child000'), parentId: asEntryId('parent00'), timestamp: TIME });
    const parent = customEntry(SEED_DESK_CUSTOM_TYPE, { version: 1, agentEnabled: true, quantities: {} }, { id: asEntryId('parent00'), parentId: null, timestamp: TIME });
    const j = SessionJournal.fromEntries(sessionHeader(SID, TIME, '/lab'), [child, parent]);
    expect(j.branch(asEntryId('child000')).map((e) => e.id)).toEqual(['parent00', 'child000']);
    expect(j.childrenOf(null)).toEqual(['parent00']);
    expect(j.childrenOf(asEntryId('parent00'))).toEqual(['child000']);
    expect(j.depthOf('child000')).toBe(1);
    expect(j.state(asEntryId('child000'))).toMatchObject({ ok: true, deskHead: 'parent00' });
    expect(j.state(asEntryId('child000'))).toEqual(reconstructBranch(SID, j.branch(asEntryId('child000'))));
    expectIndexMatchesReference(j);
  });

  it('links a late parent that arrives one entry at a time too (adopted from another tab)', () => {
    const child = userMessageEntry('child', { id: asEntryId('child000'), parentId: asEntryId('parent00'), timestamp: TIME });
    const parent = customEntry(SEED_DESK_CUSTOM_TYPE, { version: 1, agentEnabled: true, quantities: {} }, { id: asEntryId('parent00'), parentId: null, timestamp: TIME });
    const j = SessionJournal.empty(sessionHeader(SID, TIME, '/lab'));
    j.adopt(child);
    expect(j.parentIdOf(asEntryId('child000'))).toBeNull();
    j.adopt(parent);
    expect(j.branch(asEntryId('child000')).map((e) => e.id)).toEqual(['parent00', 'child000']);
    expect(j.childrenOf(null)).toEqual(['parent00']);
    expect(j.state(asEntryId('child000'))).toMatchObject({ ok: true, deskHead: 'parent00' });
    expectIndexMatchesReference(j);
  });

  it('builds a chain stored child-first (every parent on a later line) in linear time', () => {
    const n = 50_000;
    const entryId = (i: number) => asEntryId(`r${String(i).padStart(7, '0')}`);
    // Line k holds the entry at depth n-1-k: the root comes last, the deepest entry first.
    const entries = Array.from({ length: n }, (_, k) => {
      const depth = n - 1 - k;
      return userMessageEntry('x', { id: entryId(depth), parentId: depth === 0 ? null : entryId(depth - 1), timestamp: TIME });
    });
    const started = performance.now();
    const j = SessionJournal.fromEntries(sessionHeader(SID, TIME, '/lab'), entries);
    // Linking one late parent at a time would derive the chain below it again: about n²/2 steps.
    // Measured: about 0.4 s on 2 busy cores; n²/2 steps take minutes.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(j.depthOf(entryId(n - 1))).toBe(n - 1);
    expect(j.leafId).toBe(entryId(0));
    expect(j.branch(entryId(n - 1))).toHaveLength(n);
  }, 30_000);

  it('cuts a loop of parents named on later lines at the entry that would close it, so every walk ends', () => {
    const a = userMessageEntry('a', { id: asEntryId('loopa000'), parentId: asEntryId('loopb000'), timestamp: TIME });
    const b = userMessageEntry('b', { id: asEntryId('loopb000'), parentId: asEntryId('loopa000'), timestamp: TIME });
    const j = SessionJournal.fromEntries(sessionHeader(SID, TIME, '/lab'), [a, b]);
    expect(j.branch().map((e) => e.id)).toEqual(['loopa000', 'loopb000']);
    expect(j.parentIdOf(asEntryId('loopa000'))).toBeNull();
    expectIndexMatchesReference(j);
  });

  // Regression: an entry that names itself as parent made branch() loop forever.
  it('walks a self-parented entry once instead of looping', () => {
    const self = userMessageEntry('me', { id: asEntryId('self0000'), parentId: asEntryId('self0000'), timestamp: TIME });
    const j = SessionJournal.fromEntries(sessionHeader(SID, TIME, '/lab'), [self]);
    expect(j.branch().map((e) => e.id)).toEqual(['self0000']);
    expectIndexMatchesReference(j);
  });
});

describe('walks and navigation agree on a parent stored later', () => {
  it('choosing a user message whose parent was stored later puts the leaf on that parent, as the host does', () => {
    const header = sessionHeader(SID, TIME, '/lab');
    const child = userMessageEntry('a question', { id: asEntryId('o0000001'), parentId: asEntryId('p0000001'), timestamp: TIME });
    const later = userMessageEntry('stored after', { id: asEntryId('p0000001'), parentId: null, timestamp: TIME });
    const journal = SessionJournal.fromEntries(header, [child, later]);
    expect(journal.parentIdOf(asEntryId('o0000001'))).toBe('p0000001');
    expect(journal.navigateTo(asEntryId('o0000001'))).toEqual({ leafId: 'p0000001', editorText: 'a question' });
    expect(journal.leafId).toBe('p0000001');
  });
});
