/**
 * The goal checker on who did a thing and under which version (issue 36), fed by hand: the
 * extension's text and what the learner's text was changed from, a race inside the dialog that
 * was answered, the grant an act was judged under, and who made a seed_desk call, what that
 * caller did next, what it asked for and which revision it sent.
 */
import { describe, expect, it } from 'vitest';
import { hostView } from '../app/fakeConnection.testkit';
import type { EditedVersion, ToolCallOutcome } from '../protocol/messages';
import type { Fact, Observed, StampedFact, ToolCaller } from './facts';
import { checkGoal } from './goals';
import { GoalSchema, type Goal } from '../../../lessons/format/goalSchema';

const goal = (parts: unknown[]): Goal => GoalSchema.parse(parts);

type Stamp = { extension?: 'shipped' | 'edited'; version?: EditedVersion };

function observe(facts: (Fact & Stamp)[]): Observed {
  return {
    view: hostView({ sessionId: 's1', revision: 's1:e3' }),
    facts: facts.map((fact, index): StampedFact => ({ ...fact, seq: index + 1 })),
    branch: [],
    events: [],
    journalFilter: '',
    journalLines: [],
    comparison: null,
  };
}

const done = (g: Goal, facts: (Fact & Stamp)[]) => checkGoal(g, observe(facts)).done;

const stale: Fact = { kind: 'refused', code: 'stale-revision', via: 'dialog', change: null, deskEntries: { before: 2, after: 2 } };
const under = (version: EditedVersion | null, fact: Fact = stale): Fact & Stamp => (version === null ? { ...fact, extension: 'shipped' } : { ...fact, extension: 'edited', version });
const TYPED_BACK: EditedVersion = { text: 'as-shipped', editedFrom: 'an-edit' };
const DISCARDED: EditedVersion = { text: 'as-shipped', editedFrom: 'shipped' };
const BROKEN: EditedVersion = { text: 'changed', editedFrom: 'shipped' };
const MENDED: EditedVersion = { text: 'changed', editedFrom: 'an-edit' };

describe('under which version a fact happened', () => {
  const mend = goal([{ outcome: { kind: 'refused', code: 'stale-revision', extension: 'edited', editedFrom: 'an-edit' } }]);
  const brk = goal([{ outcome: { kind: 'refused', code: 'stale-revision', text: 'changed' } }]);

  it('a mend counts from the learner\'s own change to an edited version, even one that types the shipped line back', () => {
    expect(done(mend, [under(MENDED)])).toBe(true);
    expect(done(mend, [under(TYPED_BACK)])).toBe(true);
  });

  it('not from the shipped extension, nor from the shipped text "Discard my edits" put back, nor from a first edit', () => {
    expect(done(mend, [under(null)])).toBe(false);
    expect(done(mend, [under(DISCARDED)])).toBe(false);
    expect(done(mend, [under(BROKEN)])).toBe(false);
  });

  it('`text: changed` holds only where the text differs from the shipped one; the shipped extension reads as shipped', () => {
    expect(done(brk, [under(BROKEN)])).toBe(true);
    expect(done(brk, [under(MENDED)])).toBe(true);
    expect(done(brk, [under(TYPED_BACK)])).toBe(false);
    expect(done(brk, [under(null)])).toBe(false);
    expect(done(goal([{ outcome: { kind: 'refused', text: 'as-shipped' } }]), [under(null)])).toBe(true);
  });

  it('a fact stamped edited without a version (stored before issue 36) is no mend', () => {
    expect(done(mend, [{ ...stale, extension: 'edited' }])).toBe(false);
  });
});

describe('a race inside the dialog that was answered', () => {
  const raced = goal([{ outcome: { kind: 'committed', path: 'dialog', raced: true } }]);
  const opened: Fact = { kind: 'dialog-opened', title: 'Reserve?' };
  const committed: Fact = { kind: 'committed', change: { kind: 'reservation', action: 'reserve', id: 'bean-scarlet', packets: 2 }, via: 'dialog' };
  const stepBack: Fact = { kind: 'meanwhile', what: 'step-back' };

  it('holds when a Meanwhile action landed while that very dialog waited', () => {
    expect(done(raced, [opened, stepBack, committed])).toBe(true);
  });

  it('not when the race happened in an earlier dialog that was cancelled', () => {
    const cancelled: Fact = { kind: 'cancelled', change: { kind: 'reservation', action: 'reserve', id: 'bean-scarlet', packets: 2 } };
    expect(done(raced, [opened, stepBack, cancelled, opened, committed])).toBe(false);
    expect(done(goal([{ outcome: { kind: 'committed', raced: false } }]), [opened, stepBack, cancelled, opened, committed])).toBe(true);
  });
});

const call = (args: Record<string, unknown>, details: Record<string, unknown>, by?: ToolCaller): Fact => {
  const outcome: ToolCallOutcome = { kind: 'result', callId: 'c', stage: 'domain', isError: false, text: '…', details: { ok: true, scope: 'query', ...details } };
  return { kind: 'tool', args: JSON.stringify(args), outcome, deskEntries: { before: 0, after: details['scope'] === 'act' && details['ok'] !== false ? 1 : 0 }, ...(by ? { by } : {}) };
};
const query = (revision: string, by?: ToolCaller) => call({ op: 'query' }, { revision }, by);
const act = (sent: string, by?: ToolCaller, over: Record<string, unknown> = {}, details: Record<string, unknown> = {}) =>
  call({ op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: sent, ...over }, { scope: 'act', revision: 's1:e9', ...details }, by);

describe('an act and the grant it was judged under', () => {
  const noGrant = goal([{ tool: { op: 'act', ok: true, agentEnabled: false } }]);
  it('holds for an act that went through with the agent off, not for one the agent was on for', () => {
    expect(done(noGrant, [act('s1:e1', undefined, {}, { agentEnabled: false })])).toBe(true);
    expect(done(noGrant, [act('s1:e1', undefined, {}, { agentEnabled: true })])).toBe(false);
  });
});

describe('who made a call, what it did next, what it asked, which revision it sent', () => {
  const AGENTS = ['careful', 'model'];

  it('`by` tells the learner\'s calls from a scripted agent\'s and a model\'s', () => {
    const g = goal([{ tool: { op: 'query', by: AGENTS } }]);
    expect(done(g, [query('s1:e1')])).toBe(false);
    expect(done(g, [query('s1:e1', 'careless')])).toBe(false);
    expect(done(g, [query('s1:e1', 'careful')])).toBe(true);
    expect(done(g, [query('s1:e1', 'model')])).toBe(true);
  });

  it('`then` is the same caller\'s next call: a query, another call, or nothing yet; the learner\'s calls between do not count', () => {
    const refused = act('s1:e1', 'model', {}, { ok: false, code: 'stale-revision' });
    const requery = goal([{ tool: { op: 'act', ok: false, then: 'query' } }]);
    expect(done(requery, [refused, act('s1:e2', 'you'), query('s1:e2', 'model')])).toBe(true);
    expect(done(requery, [refused, act('s1:e1', 'model')])).toBe(false);
    expect(done(goal([{ tool: { op: 'act', ok: false, then: 'nothing' } }]), [refused, query('s1:e2', 'you')])).toBe(true);
  });

  it('`argsOtherThan` finds a call that asked for something else in one of the keys given', () => {
    const other = goal([{ tool: { op: 'act', argsOtherThan: { action: 'reserve', id: 'bean-scarlet', packets: 1 } } }]);
    expect(done(other, [act('s1:e1', 'model')])).toBe(false);
    expect(done(other, [act('s1:e1', 'model', { packets: 2 })])).toBe(true);
    expect(done(other, [act('s1:e1', 'model', { id: 'basil-genovese' })])).toBe(true);
  });

  it('`last-query` is the revision the newest successful query before the act returned; `not-last-query` any other', () => {
    const last = goal([{ tool: { op: 'act', expectedRevision: 'last-query' } }]);
    const notLast = goal([{ tool: { op: 'act', expectedRevision: 'not-last-query' } }]);
    expect(done(last, [query('s1:e1'), query('s1:e2'), act('s1:e2')])).toBe(true);
    expect(done(last, [query('s1:e1'), query('s1:e2'), act('s1:e1')])).toBe(false);
    expect(done(notLast, [query('s1:e1'), query('s1:e2'), act('s1:e1')])).toBe(true);
    expect(done(notLast, [act('s1:e1')])).toBe(true);
  });
});
