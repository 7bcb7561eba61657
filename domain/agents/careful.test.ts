import { describe, expect, it } from 'vitest';
import { freshEntryId } from '../ids';
import { customEntry } from '../journal/entry';
import { SEED_DESK_CUSTOM_TYPE } from '../snapshot';
import { createCarefulAgent } from './careful';
import { runAgentInMemory, type AgentRun } from './harness';
import { codesOf, grantedDesk, humanReserve, opsOf, reservedOn, type Desk } from './desk.testkit';

function desk(options: { grant?: boolean; seed?: number } = {}): Desk {
  return grantedDesk({ grant: options.grant, seed: options.seed ?? 11, message: 'Could you hold a scarlet runner bean packet for me?' });
}

const actRevisions = (run: AgentRun) => run.transcript.filter((step) => step.args['op'] === 'act').map((step) => step.args['expectedRevision']);

describe('careful agent', () => {
  it('on a granted desk: queries, reserves one bean with the exact revision it read, and reports the new revision', () => {
    const d = desk();
    const before = d.journal.revision();
    const run = runAgentInMemory(createCarefulAgent(), d.journal, d.ids);

    expect(run.finished).toBe(true);
    expect(opsOf(run)).toEqual(['query', 'act']);
    const [query, act] = run.transcript;
    expect(query?.observation.details?.revision).toBe(before);
    expect(act?.args).toEqual({ op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: before });
    expect(act?.observation).toMatchObject({ ok: true, isError: false, details: { ok: true, scope: 'act' } });
    const after = d.journal.revision();
    expect(after).not.toBe(before);
    expect(act?.observation.details?.revision).toBe(after);
    expect(run.summary).toContain(after);
    expect(reservedOn(d.journal, 'bean-scarlet')).toBe(1);
    expect(reservedOn(d.journal, 'basil-genovese')).toBe(0);
  });

  it('when a human reserves basil between its query and its act: stale refusal, re-query, act on the new revision', () => {
    const d = desk();
    const first = d.journal.revision();
    let afterHuman = '';
    const run = runAgentInMemory(createCarefulAgent(), d.journal, d.ids, 12, {
      between: (index) => {
        if (index === 0) {
          humanReserve(d, 'basil-genovese', 1);
          afterHuman = d.journal.revision();
        }
      },
    });

    expect(opsOf(run)).toEqual(['query', 'act', 'query', 'act']);
    expect(codesOf(run)).toEqual([null, 'stale-revision', null, null]);
    const [query1, act1, query2, act2] = run.transcript;
    expect(query1?.observation.details?.revision).toBe(first);
    expect(act1?.args['expectedRevision']).toBe(first);
    expect(query2?.thought).toContain('stale-revision');
    expect(query2?.observation.details?.revision).toBe(afterHuman);
    expect(act2?.args['expectedRevision']).toBe(afterHuman);
    expect(act2?.observation.details).toMatchObject({ ok: true, revision: d.journal.revision() });
    expect(new Set(actRevisions(run)).size).toBe(actRevisions(run).length);
    expect(reservedOn(d.journal, 'bean-scarlet')).toBe(1);
    expect(reservedOn(d.journal, 'basil-genovese')).toBe(1);
    expect(run.summary).toContain(d.journal.revision());
  });

  it('without the human grant: refused agent-disabled, queries again, asks the human, never retries the act', () => {
    const d = desk({ grant: false });
    const before = d.journal.revision();
    const size = d.journal.size;
    const run = runAgentInMemory(createCarefulAgent(), d.journal, d.ids);

    expect(opsOf(run)).toEqual(['query', 'act', 'query']);
    expect(codesOf(run)).toEqual([null, 'agent-disabled', null]);
    expect(run.transcript[2]?.thought).toContain('agent-disabled');
    expect(run.summary).toContain('/seeds agent on');
    expect(run.finished).toBe(true);
    expect(d.journal.revision()).toBe(before);
    expect(d.journal.size).toBe(size);
    expect(reservedOn(d.journal, 'bean-scarlet')).toBe(0);
  });

  it('with every bean packet already reserved: queries and stops without acting', () => {
    const d = desk();
    humanReserve(d, 'bean-scarlet', 5);
    const before = d.journal.revision();
    const run = runAgentInMemory(createCarefulAgent(), d.journal, d.ids);

    expect(opsOf(run)).toEqual(['query']);
    expect(run.finished).toBe(true);
    expect(run.summary).toContain('0 available');
    expect(d.journal.revision()).toBe(before);
    expect(reservedOn(d.journal, 'bean-scarlet')).toBe(5);
  });

  it('stops at once, without retrying, when the host blocks its act', () => {
    const d = desk();
    const before = d.journal.revision();
    const run = runAgentInMemory(createCarefulAgent(), d.journal, d.ids, 12, {
      deny: (args) => (args['op'] === 'act' ? 'approval denied' : undefined),
    });

    expect(opsOf(run)).toEqual(['query', 'act']);
    expect(run.transcript[1]?.observation).toMatchObject({ ok: false, isError: true });
    expect(run.transcript[1]?.observation.details).toBeUndefined();
    expect(run.finished).toBe(true);
    expect(run.summary).toContain('blocked');
    expect(d.journal.revision()).toBe(before);
    expect(reservedOn(d.journal, 'bean-scarlet')).toBe(0);
  });

  it('stops when even its first query is blocked', () => {
    const d = desk();
    const run = runAgentInMemory(createCarefulAgent(), d.journal, d.ids, 12, { deny: () => 'policy deny' });
    expect(opsOf(run)).toEqual(['query']);
    expect(run.transcript[0]?.observation.isError).toBe(true);
    expect(run.summary).toContain('blocked my query');
  });

  it('gives up after two refused acts, each on a different revision, after one last query', () => {
    const d = desk();
    const run = runAgentInMemory(createCarefulAgent(), d.journal, d.ids, 12, {
      between: (index) => {
        if (index === 0 || index === 2) humanReserve(d, 'basil-genovese', 1);
      },
    });

    expect(opsOf(run)).toEqual(['query', 'act', 'query', 'act', 'query']);
    expect(codesOf(run)).toEqual([null, 'stale-revision', null, 'stale-revision', null]);
    expect(actRevisions(run)).toHaveLength(2);
    expect(new Set(actRevisions(run)).size).toBe(2);
    expect(run.summary).toContain('gave up');
    expect(reservedOn(d.journal, 'bean-scarlet')).toBe(0);
  });

  it('on a corrupt branch: stops after the refused query and sends the human back to a valid point', () => {
    const d = desk();
    const id = freshEntryId(d.ids, (candidate) => d.journal.has(candidate));
    d.journal.append(
      customEntry(SEED_DESK_CUSTOM_TYPE, { version: 1, agentEnabled: true, quantities: { tomato: 1 } }, { id, parentId: d.journal.leafId, timestamp: d.ids.now() }),
    );
    const run = runAgentInMemory(createCarefulAgent(), d.journal, d.ids);

    expect(opsOf(run)).toEqual(['query']);
    expect(codesOf(run)).toEqual(['corrupt-state']);
    expect(run.summary).toContain('corrupt-state');
    expect(run.summary).toContain('earlier point');
  });

  it('is deterministic: equal journals give equal transcripts', () => {
    const runOnce = () => {
      const d = desk({ seed: 42 });
      return runAgentInMemory(createCarefulAgent(), d.journal, d.ids, 12, {
        between: (index) => {
          if (index === 0) humanReserve(d, 'marigold-french', 2);
        },
      });
    };
    const a = runOnce();
    const b = runOnce();
    expect(opsOf(a)).toEqual(['query', 'act', 'query', 'act']);
    expect(a).toEqual(b);
  });
});
