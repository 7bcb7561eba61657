import { describe, expect, it } from 'vitest';
import { decideGrant, decideReservation, isPositiveSafeInteger, type Actor, type Decision } from './desk';
import type { ReservationAction } from './humanChange';
import { asEntryId, asSessionId } from './ids';
import { customEntry, sessionHeader, userMessageEntry } from './journal/entry';
import { SessionJournal } from './journal/journal';
import type { BranchState } from './reconstruct';
import { REFUSAL_CODES, REFUSAL_GUIDE, type RefusalCode } from './refusal';
import { deskRows, SEED_DESK_CUSTOM_TYPE, type Snapshot } from './snapshot';

const SID = asSessionId('desk-session');
const TIME = '2026-02-01T09:00:00.000Z';
const UI = { interactive: true };
const HEADLESS = { interactive: false };

let counter = 0;
const place = (j: SessionJournal) => ({ id: asEntryId(`d${String(counter++).padStart(7, '0')}`), parentId: j.leafId, timestamp: TIME });

/** A journal whose leaf holds `snapshot` (appended as a seed desk entry), or nothing at all. */
function journalWith(data?: unknown): SessionJournal {
  const j = SessionJournal.empty(sessionHeader(SID, TIME, '/lab'));
  j.append(userMessageEntry('hello', place(j)));
  if (data !== undefined) j.append(customEntry(SEED_DESK_CUSTOM_TYPE, data, place(j)));
  return j;
}

const snap = (quantities: Record<string, number>, agentEnabled = false): Snapshot => ({ version: 1, agentEnabled, quantities });
const CORRUPT = { version: 1, agentEnabled: true, quantities: { 'basil-genovese': 99 } };

function reserve(
  state: BranchState,
  over: { action?: ReservationAction; id?: unknown; packets?: unknown; expectedRevision?: string; actor?: Actor } = {},
  surface = UI,
): Decision {
  return decideReservation(
    state,
    {
      action: over.action ?? 'reserve',
      id: 'id' in over ? over.id : 'basil-genovese',
      packets: 'packets' in over ? over.packets : 2,
      expectedRevision: over.expectedRevision ?? state.revision,
      actor: over.actor ?? 'human',
    },
    surface,
  );
}

/** Asserts a refusal with this exact code, a message and a next step, and no snapshot to append. */
function expectRefused(decision: Decision, code: RefusalCode): void {
  expect(decision.ok).toBe(false);
  if (decision.ok) return;
  expect(decision.refusal.code).toBe(code);
  expect(decision.refusal.message.trim().length).toBeGreaterThan(0);
  expect(decision.refusal.nextStep.trim().length).toBeGreaterThan(0);
  expect(decision.refusal.nextStep).toBe(REFUSAL_GUIDE[code].nextStep);
  expect('snapshot' in decision).toBe(false);
}

function expectSnapshot(decision: Decision): Snapshot {
  if (!decision.ok) throw new Error(`refused: ${decision.refusal.code} ${decision.refusal.message}`);
  return decision.snapshot;
}

describe('the refusal codes', () => {
  it('are exactly the eight of the contract', () => {
    expect([...REFUSAL_CODES]).toEqual([
      'agent-disabled',
      'stale-revision',
      'invalid-target',
      'invalid-quantity',
      'insufficient-availability',
      'insufficient-reservation',
      'corrupt-state',
      'ui-required',
    ]);
  });

  it('each have a condition and a next step', () => {
    for (const code of REFUSAL_CODES) {
      expect(REFUSAL_GUIDE[code].when.length).toBeGreaterThan(0);
      expect(REFUSAL_GUIDE[code].nextStep.length).toBeGreaterThan(0);
    }
  });
});

describe('decideReservation: success', () => {
  it('reserves 2 basil on a fresh branch: 6 available, 2 reserved', () => {
    const state = journalWith().state();
    const snapshot = expectSnapshot(reserve(state));
    expect(snapshot).toEqual(snap({ 'basil-genovese': 2 }));
    expect(deskRows(snapshot)[0]).toMatchObject({ id: 'basil-genovese', available: 6, reserved: 2 });
  });

  it('adds to what the branch already holds and keeps the grant', () => {
    const state = journalWith(snap({ 'basil-genovese': 2, 'bean-scarlet': 1 }, true)).state();
    expect(expectSnapshot(reserve(state, { packets: 6 }))).toEqual(snap({ 'basil-genovese': 8, 'bean-scarlet': 1 }, true));
  });

  it('releases, and a release to 0 drops the key', () => {
    const state = journalWith(snap({ 'basil-genovese': 2, 'marigold-french': 3 })).state();
    expect(expectSnapshot(reserve(state, { action: 'release', packets: 1 }))).toEqual(snap({ 'basil-genovese': 1, 'marigold-french': 3 }));
    expect(expectSnapshot(reserve(state, { action: 'release', id: 'marigold-french', packets: 3 }))).toEqual(snap({ 'basil-genovese': 2 }));
  });

  it('lets an agent act once the branch has the grant, without any UI', () => {
    const state = journalWith(snap({}, true)).state();
    expect(expectSnapshot(reserve(state, { actor: 'agent', id: 'bean-scarlet', packets: 1 }, HEADLESS))).toEqual(snap({ 'bean-scarlet': 1 }, true));
  });

  it('lets a human act without the agent grant', () => {
    expect(reserve(journalWith(snap({}, false)).state()).ok).toBe(true);
  });
});

describe('decideReservation: every refusal', () => {
  it('ui-required: a human reserve or release without an interactive UI', () => {
    const state = journalWith(snap({ 'basil-genovese': 2 })).state();
    expectRefused(reserve(state, {}, HEADLESS), 'ui-required');
    expectRefused(reserve(state, { action: 'release', packets: 1 }, HEADLESS), 'ui-required');
  });

  it('ui-required comes first, even on a corrupt branch or with a stale revision', () => {
    expectRefused(reserve(journalWith(CORRUPT).state(), {}, HEADLESS), 'ui-required');
    expectRefused(reserve(journalWith().state(), { expectedRevision: 'old' }, HEADLESS), 'ui-required');
  });

  it('corrupt-state: for a human and for a granted agent, naming the entry', () => {
    const state = journalWith(CORRUPT).state();
    expect(state.ok).toBe(false);
    expectRefused(reserve(state), 'corrupt-state');
    expectRefused(reserve(state, { actor: 'agent' }, HEADLESS), 'corrupt-state');
    const decision = reserve(state);
    if (!decision.ok && !state.ok) expect(decision.refusal.message).toContain(state.corruptEntryId);
  });

  it('agent-disabled: an agent act without the grant, even with perfect arguments', () => {
    expectRefused(reserve(journalWith().state(), { actor: 'agent' }, HEADLESS), 'agent-disabled');
    expectRefused(reserve(journalWith(snap({ 'basil-genovese': 1 }, false)).state(), { actor: 'agent', action: 'release', packets: 1 }, UI), 'agent-disabled');
  });

  it('agent-disabled comes before invalid arguments and staleness', () => {
    const state = journalWith().state();
    expectRefused(reserve(state, { actor: 'agent', id: 'tomato', packets: 0, expectedRevision: 'old' }, HEADLESS), 'agent-disabled');
  });

  it.each(['Basil-genovese', ' basil-genovese', 'basil-genovese ', 'BASIL-GENOVESE', 'basil', 'tomato', '', '__proto__', 'constructor', 42, null, undefined])(
    'invalid-target: %j (exact match only)',
    (id) => {
      expectRefused(reserve(journalWith().state(), { id }), 'invalid-target');
      expectRefused(reserve(journalWith(snap({}, true)).state(), { id, actor: 'agent' }, HEADLESS), 'invalid-target');
    },
  );

  it.each([0, -1, 1.5, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, '2', null, undefined, true])('invalid-quantity: %j', (packets) => {
    expectRefused(reserve(journalWith().state(), { packets }), 'invalid-quantity');
    expectRefused(reserve(journalWith(snap({ 'basil-genovese': 2 })).state(), { action: 'release', packets }), 'invalid-quantity');
  });

  it('arguments are judged before freshness', () => {
    const state = journalWith().state();
    expectRefused(reserve(state, { id: 'tomato', expectedRevision: 'old' }), 'invalid-target');
    expectRefused(reserve(state, { packets: 0, expectedRevision: 'old' }), 'invalid-quantity');
  });

  it('stale-revision: an old, made-up or other-session revision, for human and agent alike', () => {
    const j = journalWith(snap({}, true));
    const old = j.revision();
    j.append(customEntry(SEED_DESK_CUSTOM_TYPE, snap({ 'bean-scarlet': 1 }, true), place(j)));
    const state = j.state();
    expect(state.revision).not.toBe(old);
    for (const expectedRevision of [old, `${SID}:root`, 'other-session:root', '', 'COPY_THE_LATEST_RETURNED_REVISION']) {
      expectRefused(reserve(state, { expectedRevision }), 'stale-revision');
      expectRefused(reserve(state, { expectedRevision, actor: 'agent' }, HEADLESS), 'stale-revision');
    }
    const decision = reserve(state, { expectedRevision: old });
    if (!decision.ok) expect(decision.refusal.message).toContain(state.revision);
  });

  it('stale-revision comes before availability', () => {
    expectRefused(reserve(journalWith().state(), { packets: 99, expectedRevision: 'old' }), 'stale-revision');
  });

  it('insufficient-availability: more than is free on this branch', () => {
    expectRefused(reserve(journalWith().state(), { packets: 9 }), 'insufficient-availability');
    expectRefused(reserve(journalWith(snap({ 'basil-genovese': 2 })).state(), { packets: 7 }), 'insufficient-availability');
    expectRefused(reserve(journalWith(snap({ 'marigold-french': 3 })).state(), { id: 'marigold-french', packets: 1 }), 'insufficient-availability');
  });

  it('insufficient-reservation: releasing more than this branch holds', () => {
    expectRefused(reserve(journalWith().state(), { action: 'release', packets: 1 }), 'insufficient-reservation');
    expectRefused(reserve(journalWith(snap({ 'basil-genovese': 2 })).state(), { action: 'release', packets: 3 }), 'insufficient-reservation');
    expectRefused(
      reserve(journalWith(snap({ 'basil-genovese': 2 })).state(), { action: 'release', id: 'bean-scarlet', packets: 1 }),
      'insufficient-reservation',
    );
  });
});

describe('decideGrant', () => {
  it('switches the agent on, keeping the reservations', () => {
    const state = journalWith(snap({ 'bean-scarlet': 2 })).state();
    expect(expectSnapshot(decideGrant(state, { enabled: true, expectedRevision: state.revision }, UI))).toEqual(snap({ 'bean-scarlet': 2 }, true));
  });

  it('switches the agent off deliberately', () => {
    const state = journalWith(snap({ 'bean-scarlet': 2 }, true)).state();
    expect(expectSnapshot(decideGrant(state, { enabled: false, expectedRevision: state.revision }, UI))).toEqual(snap({ 'bean-scarlet': 2 }, false));
  });

  it.each([true, false])('ui-required: agent %s without an interactive UI', (enabled) => {
    const state = journalWith().state();
    expectRefused(decideGrant(state, { enabled, expectedRevision: state.revision }, HEADLESS), 'ui-required');
  });

  it('ui-required comes before a corrupt branch', () => {
    const state = journalWith(CORRUPT).state();
    expectRefused(decideGrant(state, { enabled: true, expectedRevision: state.revision }, HEADLESS), 'ui-required');
  });

  it('corrupt-state on a corrupt branch', () => {
    const state = journalWith(CORRUPT).state();
    expectRefused(decideGrant(state, { enabled: true, expectedRevision: state.revision }, UI), 'corrupt-state');
    expectRefused(decideGrant(state, { enabled: false, expectedRevision: state.revision }, UI), 'corrupt-state');
  });

  it('stale-revision when the branch moved on during the dialog', () => {
    const j = journalWith();
    const before = j.revision();
    j.append(customEntry(SEED_DESK_CUSTOM_TYPE, snap({ 'bean-scarlet': 1 }), place(j)));
    expectRefused(decideGrant(j.state(), { enabled: true, expectedRevision: before }, UI), 'stale-revision');
  });
});

describe('isPositiveSafeInteger', () => {
  it.each([1, 8, Number.MAX_SAFE_INTEGER])('accepts %s', (value) => expect(isPositiveSafeInteger(value)).toBe(true));
  it.each([0, -0, -1, 1.5, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, '1', null, undefined, 1n])('refuses %s', (value) =>
    expect(isPositiveSafeInteger(value)).toBe(false),
  );
});
