import { describe, expect, it } from 'vitest';
import { createCarelessAgent } from './careless';
import { runAgentInMemory } from './harness';
import { codesOf, grantedDesk, humanReserve, opsOf, reservedOn, type Desk } from './desk.testkit';

function desk(options: { grant?: boolean; seed?: number } = {}): Desk {
  return grantedDesk({ grant: options.grant, seed: options.seed ?? 23, message: 'Hold a bean packet for me, please.' });
}

describe('careless agent', () => {
  it('on a granted desk: one query, then the same act three times; only the first goes through', () => {
    const d = desk();
    const queried = d.journal.revision();
    const run = runAgentInMemory(createCarelessAgent(), d.journal, d.ids);

    expect(run.finished).toBe(true);
    expect(opsOf(run)).toEqual(['query', 'act', 'act', 'act']);
    expect(run.transcript[0]?.observation.details?.revision).toBe(queried);
    const acts = run.transcript.slice(1);
    for (const step of acts) {
      expect(step.args).toEqual({ op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: queried });
    }
    expect(codesOf(run)).toEqual([null, null, 'stale-revision', 'stale-revision']);
    expect(acts[0]?.observation.details).toMatchObject({ ok: true, scope: 'act' });
    for (const step of acts.slice(1)) {
      expect(step.thought).toContain('Blind retry');
      expect(step.thought).toContain(queried);
    }
    expect(reservedOn(d.journal, 'bean-scarlet')).toBe(1);
    expect(run.summary).toContain('without ever querying again');
    expect(run.summary).toContain('stale-revision');
  });

  it('without the human grant: three agent-disabled refusals and nothing changes', () => {
    const d = desk({ grant: false });
    const before = d.journal.revision();
    const size = d.journal.size;
    const run = runAgentInMemory(createCarelessAgent(), d.journal, d.ids);

    expect(opsOf(run)).toEqual(['query', 'act', 'act', 'act']);
    expect(codesOf(run)).toEqual([null, 'agent-disabled', 'agent-disabled', 'agent-disabled']);
    expect(new Set(run.transcript.slice(1).map((step) => step.args['expectedRevision']))).toEqual(new Set([before]));
    expect(d.journal.revision()).toBe(before);
    expect(d.journal.size).toBe(size);
    expect(reservedOn(d.journal, 'bean-scarlet')).toBe(0);
    expect(run.summary).toContain('Nothing was reserved');
  });

  it('does not look at availability: with every bean reserved it still acts three times', () => {
    const d = desk();
    humanReserve(d, 'bean-scarlet', 5);
    const run = runAgentInMemory(createCarelessAgent(), d.journal, d.ids);

    expect(codesOf(run)).toEqual([null, 'insufficient-availability', 'insufficient-availability', 'insufficient-availability']);
    expect(reservedOn(d.journal, 'bean-scarlet')).toBe(5);
  });

  it('is deterministic: equal journals give equal transcripts', () => {
    const runOnce = () => {
      const d = desk({ seed: 99 });
      return runAgentInMemory(createCarelessAgent(), d.journal, d.ids);
    };
    expect(runOnce()).toEqual(runOnce());
  });
});
