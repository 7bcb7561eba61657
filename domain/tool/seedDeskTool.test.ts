import { describe, expect, it } from 'vitest';
import { asEntryId, asSessionId, type EntryId } from '../ids';
import { customEntry, sessionHeader, userMessageEntry } from '../journal/entry';
import { SessionJournal } from '../journal/journal';
import type { RefusalCode } from '../refusal';
import { SEED_DESK_CUSTOM_TYPE, type Snapshot } from '../snapshot';
import { planSeedDeskCall, type ToolPlan, type ToolResult } from './seedDeskTool';

const SID = asSessionId('tool-session');
const TIME = '2026-04-01T08:00:00.000Z';
let counter = 0;
const place = (j: SessionJournal) => ({ id: asEntryId(`t${String(counter++).padStart(7, '0')}`), parentId: j.leafId, timestamp: TIME });

function journal(...snapshots: unknown[]): SessionJournal {
  const j = SessionJournal.empty(sessionHeader(SID, TIME, '/lab'));
  j.append(userMessageEntry('hello', place(j)));
  for (const data of snapshots) j.append(customEntry(SEED_DESK_CUSTOM_TYPE, data, place(j)));
  return j;
}
const snap = (quantities: Record<string, number>, agentEnabled = false): Snapshot => ({ version: 1, agentEnabled, quantities });
const CORRUPT = { version: 1, agentEnabled: true, quantities: { tomato: 1 } };

function answer(plan: ToolPlan): ToolResult {
  if (plan.kind !== 'answer') throw new Error(`expected an answer, got ${plan.kind}`);
  expect(plan.result.content).toHaveLength(1);
  expect(plan.result.content[0].type).toBe('text');
  return plan.result;
}

/** The host's half of a commit: append the snapshot on the leaf, then describe with the new revision. */
function commit(j: SessionJournal, plan: ToolPlan): { result: ToolResult; entryId: EntryId } {
  if (plan.kind !== 'commit') throw new Error(`expected a commit, got ${plan.kind}${plan.kind === 'answer' ? `: ${plan.result.content[0].text}` : ''}`);
  const entry = customEntry(SEED_DESK_CUSTOM_TYPE, plan.snapshot, place(j));
  j.append(entry);
  return { result: plan.describe(j.revision()), entryId: entry.id };
}

function expectRefusal(plan: ToolPlan, code: RefusalCode, scope: string, revision: string): ToolResult {
  const result = answer(plan);
  expect(result.details).toMatchObject({ ok: false, scope, code, revision });
  const data = result.details.data as { message: string; nextStep: string };
  expect(data.message.length).toBeGreaterThan(0);
  expect(data.nextStep.length).toBeGreaterThan(0);
  expect(result.content[0].text).toContain(`Refused (${code})`);
  expect(result.content[0].text).toContain(`revision: ${revision}`);
  return result;
}

const act = (over: Record<string, unknown>) => ({ op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, ...over });

describe('discover', () => {
  it('explains the operations and prerequisites and gives the revision', () => {
    const j = journal(snap({}, true));
    const result = answer(planSeedDeskCall({ op: 'discover' }, j.state()));
    expect(result.details).toMatchObject({ ok: true, scope: 'discover', revision: j.revision(), agentEnabled: true });
    expect(Object.keys(result.details).sort()).toEqual(['agentEnabled', 'data', 'ok', 'revision', 'scope']);
    const text = result.content[0].text;
    for (const op of ['discover', 'query', 'inspect', 'act']) expect(text).toContain(op);
    expect(text).toContain('/seeds agent on');
    expect(text.split('\n').at(-1)).toBe(`revision: ${j.revision()}`);
    const data = result.details.data as { operations: { op: string }[]; prerequisites: string[] };
    expect(data.operations.map((o) => o.op)).toEqual(['discover', 'query', 'inspect', 'act']);
    expect(data.prerequisites.length).toBeGreaterThan(0);
  });

  it('still answers on a corrupt branch, saying so, without agentEnabled', () => {
    const j = journal(CORRUPT);
    const state = j.state();
    if (state.ok) throw new Error('expected corrupt');
    const result = answer(planSeedDeskCall({ op: 'discover' }, state));
    expect(result.details.ok).toBe(true);
    expect(result.details.agentEnabled).toBeUndefined();
    expect(result.content[0].text).toContain(state.corruptEntryId);
    expect(result.content[0].text).toContain(`revision: ${state.revision}`);
  });
});

describe('query', () => {
  it('lists every item, one line each, then the revision', () => {
    const j = journal(snap({ 'basil-genovese': 2 }));
    const result = answer(planSeedDeskCall({ op: 'query' }, j.state()));
    expect(result.content[0].text).toBe(
      ['basil-genovese: 6 available, 2 reserved', 'bean-scarlet: 5 available, 0 reserved', 'marigold-french: 3 available, 0 reserved', `revision: ${j.revision()}`].join('\n'),
    );
    expect(result.details).toMatchObject({ ok: true, scope: 'query', revision: j.revision(), agentEnabled: false });
    const items = (result.details.data as { items: { id: string; available: number; reserved: number; packets: number }[] }).items;
    expect(items.map((i) => [i.id, i.available, i.reserved, i.packets])).toEqual([
      ['basil-genovese', 6, 2, 8],
      ['bean-scarlet', 5, 0, 5],
      ['marigold-french', 3, 0, 3],
    ]);
  });

  it('filters by exact family', () => {
    const j = journal();
    const result = answer(planSeedDeskCall({ op: 'query', family: 'bean' }, j.state()));
    expect(result.content[0].text).toBe(`bean-scarlet: 5 available, 0 reserved\nrevision: ${j.revision()}`);
    expect(result.details.data).toEqual({ family: 'bean', items: [expect.objectContaining({ id: 'bean-scarlet' })] });
  });

  it.each(['Bean', 'bea', 'bean ', 'beans', '', '__proto__'])('gives an empty result with a message for family %j', (family) => {
    const j = journal();
    const result = answer(planSeedDeskCall({ op: 'query', family }, j.state()));
    expect(result.details).toMatchObject({ ok: true, scope: 'query', revision: j.revision() });
    expect((result.details.data as { items: unknown[] }).items).toEqual([]);
    expect(result.content[0].text).toContain(`No item has the family "${family}"`);
    expect(result.content[0].text).toContain('basil, bean, marigold');
    expect(result.content[0].text.split('\n').at(-1)).toBe(`revision: ${j.revision()}`);
  });

  it('is an error (not a refusal) when family is not a string', () => {
    expect(planSeedDeskCall({ op: 'query', family: 3 }, journal().state()).kind).toBe('error');
  });

  it('is refused with corrupt-state on a corrupt branch', () => {
    const j = journal(CORRUPT);
    const result = expectRefusal(planSeedDeskCall({ op: 'query' }, j.state()), 'corrupt-state', 'query', j.revision());
    expect(result.details.agentEnabled).toBeUndefined();
  });
});

describe('inspect', () => {
  it('shows one item and the revision', () => {
    const j = journal(snap({ 'marigold-french': 1 }, true));
    const result = answer(planSeedDeskCall({ op: 'inspect', id: 'marigold-french' }, j.state()));
    expect(result.content[0].text).toBe(`French marigold (marigold-french, family marigold): 2 available, 1 reserved of 3\nrevision: ${j.revision()}`);
    expect(result.details).toEqual({
      ok: true,
      scope: 'inspect',
      revision: j.revision(),
      agentEnabled: true,
      data: { item: { id: 'marigold-french', name: 'French marigold', family: 'marigold', packets: 3, available: 2, reserved: 1 } },
    });
  });

  it.each(['Basil-genovese', ' basil-genovese', 'tomato', '__proto__', 'constructor', 7, null])('refuses %j with invalid-target', (id) => {
    const j = journal();
    expectRefusal(planSeedDeskCall({ op: 'inspect', id }, j.state()), 'invalid-target', 'inspect', j.revision());
  });

  it('is refused with corrupt-state on a corrupt branch', () => {
    const j = journal(CORRUPT);
    expectRefusal(planSeedDeskCall({ op: 'inspect', id: 'basil-genovese' }, j.state()), 'corrupt-state', 'inspect', j.revision());
  });
});

describe('act', () => {
  it('plans a commit; the description carries the new revision and the new line', () => {
    const j = journal(snap({}, true));
    const before = j.revision();
    const plan = planSeedDeskCall(act({ expectedRevision: before }), j.state());
    expect(j.revision()).toBe(before);
    if (plan.kind !== 'commit') throw new Error(plan.kind);
    expect(plan.snapshot).toEqual(snap({ 'bean-scarlet': 1 }, true));
    const { result, entryId } = commit(j, plan);
    expect(j.revision()).toBe(`${SID}:${entryId}`);
    expect(j.revision()).not.toBe(before);
    expect(result.content[0].text).toBe(`Reserved 1 bean-scarlet.\nbean-scarlet: 4 available, 1 reserved\nrevision: ${j.revision()}`);
    expect(result.details).toEqual({
      ok: true,
      scope: 'act',
      revision: j.revision(),
      agentEnabled: true,
      data: {
        action: 'reserve',
        id: 'bean-scarlet',
        packets: 1,
        item: { id: 'bean-scarlet', name: 'Scarlet runner bean', family: 'bean', packets: 5, available: 4, reserved: 1 },
      },
    });
  });

  it('releases', () => {
    const j = journal(snap({ 'basil-genovese': 2 }, true));
    const { result } = commit(j, planSeedDeskCall(act({ action: 'release', id: 'basil-genovese', packets: 2, expectedRevision: j.revision() }), j.state()));
    expect(result.content[0].text).toContain('Released 2 basil-genovese.\nbasil-genovese: 8 available, 0 reserved\n');
    expect(j.state()).toMatchObject({ ok: true, snapshot: snap({}, true) });
  });

  it('the careful sequence: query, act with the returned revision, and reusing it is refused, not a second reservation', () => {
    const j = journal(snap({}, true));
    const query = answer(planSeedDeskCall({ op: 'query' }, j.state()));
    const revision = query.details.revision!;
    commit(j, planSeedDeskCall(act({ expectedRevision: revision }), j.state()));
    const size = j.size;
    const again = planSeedDeskCall(act({ expectedRevision: revision }), j.state());
    const refused = expectRefusal(again, 'stale-revision', 'act', j.revision());
    expect(refused.details.agentEnabled).toBe(true);
    expect(j.size).toBe(size);
    expect(j.state()).toMatchObject({ snapshot: { quantities: { 'bean-scarlet': 1 } } });
  });

  it('refusals are answers with details.ok false, for every code the tool can meet', () => {
    const off = journal(snap({ 'basil-genovese': 2 }));
    expectRefusal(planSeedDeskCall(act({ expectedRevision: off.revision() }), off.state()), 'agent-disabled', 'act', off.revision());

    const on = journal(snap({ 'basil-genovese': 2, 'marigold-french': 3 }, true));
    const rev = on.revision();
    const cases: [Record<string, unknown>, RefusalCode][] = [
      [act({ expectedRevision: `${SID}:root` }), 'stale-revision'],
      [act({ expectedRevision: 'COPY_THE_LATEST_RETURNED_REVISION' }), 'stale-revision'],
      [act({ expectedRevision: 42 }), 'stale-revision'],
      [act({ expectedRevision: null }), 'stale-revision'],
      [act({ id: 'Basil-genovese', expectedRevision: rev }), 'invalid-target'],
      [act({ id: ' basil-genovese', expectedRevision: rev }), 'invalid-target'],
      [act({ id: null, expectedRevision: rev }), 'invalid-target'],
      [act({ packets: 0, expectedRevision: rev }), 'invalid-quantity'],
      [act({ packets: -1, expectedRevision: rev }), 'invalid-quantity'],
      [act({ packets: 1.5, expectedRevision: rev }), 'invalid-quantity'],
      [act({ packets: 2 ** 53, expectedRevision: rev }), 'invalid-quantity'],
      [act({ packets: Number.NaN, expectedRevision: rev }), 'invalid-quantity'],
      [act({ packets: '2', expectedRevision: rev }), 'invalid-quantity'],
      [act({ id: 'marigold-french', packets: 1, expectedRevision: rev }), 'insufficient-availability'],
      [act({ id: 'basil-genovese', packets: 7, expectedRevision: rev }), 'insufficient-availability'],
      [act({ action: 'release', id: 'basil-genovese', packets: 3, expectedRevision: rev }), 'insufficient-reservation'],
      [act({ action: 'release', id: 'bean-scarlet', packets: 1, expectedRevision: rev }), 'insufficient-reservation'],
    ];
    for (const [raw, code] of cases) {
      const size = on.size;
      expectRefusal(planSeedDeskCall(raw, on.state()), code, 'act', rev);
      expect(on.size).toBe(size);
    }

    const corrupt = journal(CORRUPT);
    expectRefusal(planSeedDeskCall(act({ expectedRevision: corrupt.revision() }), corrupt.state()), 'corrupt-state', 'act', corrupt.revision());
  });

  it('never answers ui-required: the tool acts as the agent, which needs no dialog', () => {
    const j = journal(snap({}, true));
    expect(planSeedDeskCall(act({ expectedRevision: j.revision() }), j.state()).kind).toBe('commit');
  });
});

describe('malformed calls are errors, not refusals', () => {
  it.each([
    [null],
    [undefined],
    ['query'],
    [[{ op: 'query' }]],
    [{}],
    [{ op: 'Query' }],
    [{ op: 'reserve' }],
    [{ op: 42 }],
    [act({ action: 'take', expectedRevision: 'r' })],
    [act({ action: 'Reserve', expectedRevision: 'r' })],
  ])('%j', (raw) => {
    const plan = planSeedDeskCall(raw, journal(snap({}, true)).state());
    expect(plan.kind).toBe('error');
    if (plan.kind === 'error') expect(plan.message.length).toBeGreaterThan(0);
  });

  // The tool's own check (opFields.ts): the flat schema lets these through, the tool stops them before the desk.
  it.each([
    [{ op: 'inspect' }, 'seed_desk inspect is missing id'],
    [{ op: 'inspect', id: undefined }, 'seed_desk inspect is missing id'],
    [act({}), 'seed_desk act is missing expectedRevision'],
    [act({ action: undefined, expectedRevision: 'r' }), 'seed_desk act is missing action'],
    [act({ id: undefined, expectedRevision: 'r' }), 'seed_desk act is missing id'],
    [{ op: 'discover', id: 'bean-scarlet' }, 'seed_desk discover does not take id'],
    [{ op: 'query', family: 'bean', packets: 1 }, 'seed_desk query does not take packets'],
  ])('a field its op needs or does not take: %j', (raw, start) => {
    for (const state of [journal(snap({}, true)).state(), journal(CORRUPT).state()]) {
      const plan = planSeedDeskCall(raw, state);
      expect(plan.kind === 'error' && plan.message.startsWith(start)).toBe(true);
    }
  });
});
