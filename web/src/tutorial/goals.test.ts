/**
 * The goal checker, fed by hand: what no lesson action can produce (an entry claiming to be sent
 * to the model, a refusal during which another tab wrote), the generic reasons, the placeholders,
 * and conditions the lessons do not use yet but the vocabulary promises (a family filter, a
 * revision unchanged by conversation, counts).
 */
import { hostView } from '../app/fakeConnection.testkit';
import { describe, expect, it } from 'vitest';
import { FIXTURE } from '$domain/fixture';
import type { BranchItem, ComparisonView, HostView, ToolCallOutcome } from '../protocol/messages';
import type { Fact, Observed } from './facts';
import { checkGoal } from './goals';
import { GoalSchema, type Goal } from '../../../lessons/format/goalSchema';

const R0 = 's1:root';
const R1 = 's1:e0000001';
const R2 = 's1:e0000002';

type Held = Partial<Record<(typeof FIXTURE)[number]['id'], number>>;

function view(over: Partial<HostView> & { held?: Held } = {}): HostView {
  const { held = {}, ...rest } = over;
  const rows = FIXTURE.map((item) => ({ id: item.id, name: item.name, family: item.family, packets: item.packets, reserved: held[item.id] ?? 0, available: item.packets - (held[item.id] ?? 0) }));
  return hostView({ sessionId: 's1', entryCount: 0, leafId: null, revision: R0, rows, status: `Seed desk: revision ${over.revision ?? R0}`, ...rest });
}

function observe(parts: { view?: HostView; facts?: Fact[]; branch?: BranchItem[]; comparison?: ComparisonView | null } = {}): Observed {
  return {
    view: parts.view ?? view(),
    facts: (parts.facts ?? []).map((fact, index) => ({ ...fact, seq: index + 1 })),
    branch: parts.branch ?? [],
    events: [],
    journalFilter: '',
    journalLines: [],
    comparison: parts.comparison ?? null,
  };
}

/** Goals are validated as the compiler validates them, so a test cannot use a condition the schema refuses. */
const goal = (parts: unknown[]): Goal => GoalSchema.parse(parts);
const answer = (revision: string, ids: string[] = FIXTURE.map((item) => item.id)): Fact => ({
  kind: 'answer',
  text: '…',
  query: { revision, rows: ids.map((id) => ({ id, available: 1, reserved: 0 })) },
});
const deskItem = (id: string, revision: string, modelVisible = false): BranchItem => ({ id, type: 'custom', role: 'seed-desk', text: '{}', label: null, revision, modelVisible });
const result = (over: Partial<Extract<ToolCallOutcome, { kind: 'result' }>>): ToolCallOutcome => ({ kind: 'result', callId: 'c1', stage: 'domain', isError: false, text: '…', details: null, ...over });

describe('the goal checker', () => {
  it('ticks when every part holds, and reports the first unmet part in the step\'s words', () => {
    const g = goal([{ outcome: { kind: 'answered' }, unmet: 'query first.' }, { grant: 'on', unmet: 'switch the agent on.' }]);
    expect(checkGoal(g, observe())).toEqual({ done: false, whyNot: 'Not yet: query first.' });
    expect(checkGoal(g, observe({ facts: [answer(R0)] }))).toEqual({ done: false, whyNot: 'Not yet: switch the agent on.' });
    expect(checkGoal(g, observe({ view: view({ agentEnabled: true }), facts: [answer(R0)] }))).toEqual({ done: true, whyNot: null });
  });

  it('refuses to judge a corrupt branch', () => {
    const result = checkGoal(goal([{ grant: 'off' }]), observe({ view: view({ corrupt: { entryId: 'bad00001', problem: '99 of 8' } }) }));
    expect(result.whyNot).toMatch(/corrupt \(entry bad00001\)/);
  });

  it('names the entries a refusal wrote when the part asked for one that writes nothing (another tab wrote meanwhile)', () => {
    const refused: Fact = { kind: 'refused', code: 'stale-revision', via: 'dialog', change: null, deskEntries: { before: 1, after: 2 } };
    const result = checkGoal(goal([{ outcome: { kind: 'refused', code: 'stale-revision', wrote: 'nothing' }, unmet: 'confirm.' }]), observe({ facts: [refused] }));
    expect(result.whyNot).toMatch(/went from 1 to 2/);
  });

  it('says when the host stopped the call a part wanted the desk to answer, before the step\'s own cases', () => {
    const blocked: Fact = { kind: 'tool', args: '{"op":"query"}', outcome: result({ stage: 'approval', isError: true, approval: { policy: 'deny', tier: 'write', source: 'user' } }), deskEntries: { before: 0, after: 0 } };
    const g = goal([{ tool: { op: 'query', ok: true }, unmet: 'call query.', when: [{ tool: {}, say: 'any call.' }] }]);
    expect(checkGoal(g, observe({ facts: [blocked] })).whyNot).toMatch(/the host blocked that call/);
    expect(checkGoal(g, observe({ view: view({ pendingApproval: { callId: 'c1', prompt: 'Allow tool: seed_desk' } }) })).whyNot).toMatch(/waiting for host approval/);
    // A part about the host's gate itself gets the step's reason, not the generic one.
    expect(checkGoal(goal([{ tool: { stopped: 'schema' }, unmet: 'send a malformed call.' }]), observe({ facts: [blocked] })).whyNot).toBe('Not yet: send a malformed call.');
  });

  it('does not tick an entry that claims to be sent to the model', () => {
    const g = goal([{ branch: { current: { role: 'seed-desk', sentToModel: false } }, unmet: 'that entry is marked as sent to the model.' }]);
    expect(checkGoal(g, observe({ view: view({ revision: R1 }), branch: [deskItem('e0000001', R1)] })).done).toBe(true);
    expect(checkGoal(g, observe({ view: view({ revision: R1 }), branch: [deskItem('e0000001', R1, true)] })).whyNot).toMatch(/sent to the model/);
  });

  it('fills in placeholders from the page and from the fact a case matched, and leaves JSON alone', () => {
    const refused: Fact = { kind: 'tool', args: '{"op":"inspect","id":"Basil"}', outcome: result({ details: { ok: false, scope: 'inspect', code: 'invalid-target' } }), deskEntries: { before: 0, after: 0 } };
    const g = goal([
      {
        tool: { op: 'inspect', ok: true },
        unmet: 'basil holds {basil-genovese.reserved} of {basil-genovese.packets}; call {"op":"inspect"}.',
        when: [{ tool: { code: 'invalid-target' }, say: '"{id}" was refused with {code}; {unknown} stays.' }],
      },
    ]);
    expect(checkGoal(g, observe({ facts: [refused] })).whyNot).toBe('Not yet: "Basil" was refused with invalid-target; {unknown} stays.');
    expect(checkGoal(g, observe({ view: view({ held: { 'basil-genovese': 2 } }) })).whyNot).toBe('Not yet: basil holds 2 of 8; call {"op":"inspect"}.');
  });

  it('makes a sentence from the condition when the step gave none', () => {
    expect(checkGoal(goal([{ desk: { 'bean-scarlet': { reserved: 1 } } }]), observe()).whyNot).toBe('Not yet: the desk should show bean-scarlet: 1 reserved.');
    expect(checkGoal(goal([{ outcome: { kind: 'refused', code: 'ui-required', path: 'line' } }]), observe()).whyNot).toMatch(/a refusal with `ui-required` through the Command line/);
  });

  it('orders facts: after and before a named fact, the newest of a kind, and counts', () => {
    const facts: Fact[] = [answer(R0), { kind: 'said', text: 'hello' }, answer(R0)];
    const ordered = goal([{ outcome: { kind: 'said' }, as: 'said' }, { outcome: { kind: 'answered', after: 'said' } }]);
    expect(checkGoal(ordered, observe({ facts })).done).toBe(true);
    expect(checkGoal(ordered, observe({ facts: facts.slice(0, 2) })).done).toBe(false);
    expect(checkGoal(goal([{ outcome: { kind: 'answered', count: 2 } }]), observe({ facts })).done).toBe(true);
    expect(checkGoal(goal([{ outcome: { kind: 'answered', count: { atLeast: 3 } } }]), observe({ facts })).done).toBe(false);
    expect(checkGoal(goal([{ outcome: { kind: 'said', latest: true, before: 'x' } }]), observe({ facts })).done).toBe(false);
  });

  it('tells which extension a fact happened under: a refusal from the shipped extension is not one from the edited version', () => {
    const refused: Fact = { kind: 'refused', code: 'stale-revision', via: 'dialog', change: null, deskEntries: { before: 1, after: 1 } };
    const act: Fact = { kind: 'tool', args: '{"op":"act"}', outcome: result({ details: { ok: false, scope: 'act', code: 'agent-disabled' } }), deskEntries: { before: 1, after: 1 } };
    const under = (extension: 'shipped' | 'edited' | undefined, ...facts: Fact[]): Observed => ({ ...observe(), facts: facts.map((fact, index) => ({ ...fact, seq: index + 1, ...(extension ? { extension } : {}) })) });
    const mend = goal([
      { outcome: { kind: 'refused', code: 'stale-revision', extension: 'edited' }, unmet: 'mend it.', when: [{ outcome: { kind: 'refused', extension: 'shipped' }, say: 'that was the shipped one.' }] },
    ]);
    expect(checkGoal(mend, under('edited', refused)).done).toBe(true);
    expect(checkGoal(mend, under('shipped', refused)).whyNot).toBe('Not yet: that was the shipped one.');
    // A fact noted without a stamp ran under the shipped extension, as a view without `extension` runs it.
    expect(checkGoal(mend, under(undefined, refused)).whyNot).toBe('Not yet: that was the shipped one.');
    expect(checkGoal(goal([{ tool: { op: 'act', code: 'agent-disabled', extension: 'edited' } }]), under('edited', act)).done).toBe(true);
    expect(checkGoal(goal([{ tool: { op: 'act', code: 'agent-disabled', extension: 'edited' } }]), under('shipped', act)).done).toBe(false);
    expect(checkGoal(goal([{ outcome: { kind: 'refused', extension: 'edited' } }]), under('shipped', refused)).whyNot).toMatch(/while your edited version runs/);
  });

  it('expresses "ordinary conversation does not stale the revision, a permission change does"', () => {
    const conversation = goal([
      { outcome: { kind: 'answered' }, as: 'first' },
      { outcome: { kind: 'said', after: 'first' }, as: 'said' },
      { outcome: { kind: 'answered', after: 'said', revision: { sameAs: 'first' } }, unmet: 'the revision should be the same as before the message.' },
    ]);
    expect(checkGoal(conversation, observe({ facts: [answer(R1), { kind: 'said', text: 'hi' }, answer(R1)] })).done).toBe(true);
    const permission = goal([{ outcome: { kind: 'answered' }, as: 'first' }, { outcome: { kind: 'answered', revision: { differentFrom: 'first' } } }]);
    expect(checkGoal(permission, observe({ facts: [answer(R1), answer(R2)] })).done).toBe(true);
    expect(checkGoal(permission, observe({ facts: [answer(R1), answer(R1)] })).done).toBe(false);
  });

  it('expresses the exact family filter of a query', () => {
    const basilOnly = goal([{ outcome: { kind: 'answered', rows: ['basil-genovese'] }, unmet: 'query the basil family.' }]);
    expect(checkGoal(basilOnly, observe({ facts: [answer(R0, ['basil-genovese'])] })).done).toBe(true);
    expect(checkGoal(basilOnly, observe({ facts: [answer(R0)] })).whyNot).toBe('Not yet: query the basil family.');
  });

  it('expresses a malformed call stopped by the schema beside a well-formed one refused by the domain', () => {
    const g = goal([{ tool: { stopped: 'schema' } }, { tool: { code: 'invalid-quantity', args: { packets: -1 } } }]);
    const schema: Fact = { kind: 'tool', args: '{"op":"act","packets":"-1"}', outcome: result({ stage: 'schema', isError: true }), deskEntries: { before: 0, after: 0 } };
    const domain: Fact = { kind: 'tool', args: '{"op":"act","packets":-1}', outcome: result({ details: { ok: false, scope: 'act', code: 'invalid-quantity' } }), deskEntries: { before: 0, after: 0 } };
    expect(checkGoal(g, observe({ facts: [schema, domain] })).done).toBe(true);
    expect(checkGoal(g, observe({ facts: [domain] })).done).toBe(false);
  });

  it('keeps named checks to arithmetic: the compare\'s combined sum against the stock', () => {
    const side = (tip: string, revision: string, marigolds: number) => ({
      tipId: tip,
      revision,
      ok: true,
      agentEnabled: false,
      rows: FIXTURE.map((item) => ({ id: item.id, name: item.name, family: item.family, packets: item.packets, reserved: item.id === 'marigold-french' ? marigolds : 0, available: 0 })),
    });
    const comparison = (here: number, there: number): ComparisonView => ({
      left: side('e1', R1, here),
      right: side('e2', R2, there),
      forkPointId: 'e0',
      leftSince: [],
      rightSince: [],
      differences: [],
      grantDiffers: false,
      combinedReserved: [{ id: 'marigold-french', reserved: here + there, packets: 3 }],
    });
    const g = goal([{ check: { name: 'combined-exceeds-stock', item: 'marigold-french' }, unmet: '{here} and {there} of {packets}.' }]);
    expect(checkGoal(g, observe({ comparison: comparison(3, 3) })).done).toBe(true);
    expect(checkGoal(g, observe({ comparison: comparison(0, 3) })).whyNot).toBe('Not yet: 0 and 3 of 3.');
    expect(checkGoal(goal([{ check: { name: 'no-such-check' } }]), observe({ comparison: comparison(3, 3) })).done).toBe(false);
  });

  it('reads what issue 22 part 4 added: a query\'s items, a revision sent as a named one, the text\'s revision, a step\'s question, the journal\'s lines', () => {
    const query: Fact = { kind: 'tool', args: '{"op":"query","family":"bean"}', outcome: result({ text: `bean-scarlet: 5 available\nrevision: ${R1}`, details: { ok: true, scope: 'query', revision: R1, data: { items: [{ id: 'bean-scarlet' }] } } }), deskEntries: { before: 0, after: 0 } };
    const act = (sent: string): Fact => ({ kind: 'tool', args: JSON.stringify({ op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: sent }), outcome: result({ details: { ok: true, scope: 'act', revision: R2 } }), deskEntries: { before: 1, after: 2 } });
    expect(checkGoal(goal([{ tool: { op: 'query', items: ['bean-scarlet'], revisionInText: true } }]), observe({ facts: [query] })).done).toBe(true);
    expect(checkGoal(goal([{ tool: { op: 'query', items: 'none' } }]), observe({ facts: [query] })).done).toBe(false);
    const sameAs = goal([{ tool: { op: 'query' }, as: 'read' }, { tool: { op: 'act', ok: true, expectedRevision: { sameAs: 'read' } } }]);
    expect(checkGoal(sameAs, observe({ facts: [query, act(R1)] })).done).toBe(true);
    expect(checkGoal(sameAs, observe({ facts: [query, act(R0)] })).done).toBe(false);
    const asked = goal([{ question: 'no', unmet: 'answer no.' }]);
    expect(checkGoal(asked, observe({ facts: [{ kind: 'question-answer', question: 'q', value: 'no' }] })).done).toBe(true);
    expect(checkGoal(asked, observe({ facts: [{ kind: 'question-answer', question: 'q', value: 'yes' }] })).whyNot).toBe('Not yet: answer no.');
    const snapshots = goal([{ journal: { snapshotKeys: ['version', 'agentEnabled', 'quantities'] } }]);
    const line = (data: unknown) => JSON.stringify({ type: 'custom', customType: 'seed-desk-state-v1', data });
    const lines = (journalLines: string[]): Observed => ({ ...observe(), journalLines });
    expect(checkGoal(snapshots, lines([line({ version: 1, agentEnabled: true, quantities: {} })])).done).toBe(true);
    expect(checkGoal(snapshots, lines([line({ version: 1, agentEnabled: true, quantities: {}, revision: R1 })])).done).toBe(false);
    expect(checkGoal(snapshots, lines([])).done).toBe(false);
  });

  it('says the step\'s own words about a gate before the generic host-stop reason', () => {
    const schema: Fact = { kind: 'tool', args: '{"op":"act","packets":"two"}', outcome: result({ stage: 'schema', isError: true }), deskEntries: { before: 0, after: 0 } };
    const g = goal([{ tool: { code: 'insufficient-availability' }, when: [{ tool: { stopped: 'schema', latest: true }, say: 'the schema stopped it, as it should.' }] }]);
    expect(checkGoal(g, observe({ facts: [schema] })).whyNot).toBe('Not yet: the schema stopped it, as it should.');
  });

  it('refuses a part that names no condition, or two', () => {
    expect(GoalSchema.safeParse([{ unmet: 'nothing to check' }]).success).toBe(false);
    expect(GoalSchema.safeParse([{ grant: 'on', closing: 'no' }]).success).toBe(false);
    expect(GoalSchema.safeParse([{ grant: 'maybe' }]).success).toBe(false);
  });
});
