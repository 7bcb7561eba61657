import { describe, expect, it } from 'vitest';
import { asSessionId } from '../ids';
import { reconstructBranch } from '../reconstruct';
import { checkSeedDeskArgs, opFieldsProblem, SEED_DESK_OP_FIELDS } from './opFields';
import type { SeedDeskOp } from './schema';
import { planSeedDeskCall } from './seedDeskTool';

const ACT = { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: 's:root' } as const;
const EMPTY = reconstructBranch(asSessionId('s'), []);

describe('the fields each op takes (what the union by op used to say)', () => {
  it('act needs action, id, packets and expectedRevision; inspect needs id; query may add family; discover takes nothing', () => {
    expect(SEED_DESK_OP_FIELDS).toEqual({
      discover: { needs: [], optional: [] },
      query: { needs: [], optional: ['family'] },
      inspect: { needs: ['id'], optional: [] },
      act: { needs: ['action', 'id', 'packets', 'expectedRevision'], optional: [] },
    });
  });

  it.each([[{ op: 'discover' }], [{ op: 'query' }], [{ op: 'query', family: 'bean' }], [{ op: 'inspect', id: 'x' }], [ACT]])('fits: %j', (raw) => {
    expect(opFieldsProblem(raw.op as SeedDeskOp, raw)).toBeNull();
    expect(checkSeedDeskArgs(raw)).toEqual({ ok: true, args: raw });
  });
});

describe('the text a model is sent names the op and the fields', () => {
  it.each([
    [{ op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1 }, 'seed_desk act is missing expectedRevision: act needs action, id, packets and expectedRevision, nothing else. Nothing was changed.'],
    [{ op: 'act', id: 'bean-scarlet' }, 'seed_desk act is missing action, packets and expectedRevision: act needs action, id, packets and expectedRevision, nothing else. Nothing was changed.'],
    [{ op: 'inspect' }, 'seed_desk inspect is missing id: inspect needs id, nothing else. Nothing was changed.'],
    [{ op: 'inspect', id: 'x', packets: 1 }, 'seed_desk inspect does not take packets: inspect needs id, nothing else. Nothing was changed.'],
    [{ op: 'discover', id: 'x' }, 'seed_desk discover does not take id: discover takes no other field. Nothing was changed.'],
    [{ op: 'query', id: 'x', expectedRevision: 'r' }, 'seed_desk query does not take id and expectedRevision: query may add family, nothing else. Nothing was changed.'],
    [{ ...ACT, family: 'bean', expectedRevision: undefined }, 'seed_desk act is missing expectedRevision and does not take family: act needs action, id, packets and expectedRevision, nothing else. Nothing was changed.'],
  ])('%j', (raw, text) => {
    expect(opFieldsProblem(raw.op as SeedDeskOp, raw)).toBe(text);
    expect(checkSeedDeskArgs(raw)).toEqual({ ok: false, stage: 'tool', message: text });
  });
});

describe('the tool runs it before the domain, whatever the branch holds', () => {
  it('a call with the wrong fields is an error (thrown by the tool), not a refusal: nothing to commit, no code', () => {
    const plan = planSeedDeskCall({ op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1 }, EMPTY);
    expect(plan).toEqual({ kind: 'error', message: opFieldsProblem('act', { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1 }) });
  });

  it('only own keys count: an act carried in an own __proto__ key has no fields', () => {
    const raw = JSON.parse(`{"op":"inspect","__proto__":{"id":"bean-scarlet"}}`) as Record<string, unknown>;
    expect(planSeedDeskCall(raw, EMPTY)).toMatchObject({ kind: 'error', message: expect.stringContaining('inspect is missing id and does not take __proto__') });
  });

  it('values are left to the domain: 0, -1 and 1.5 packets are fields present, for the desk to refuse', () => {
    for (const packets of [0, -1, 1.5]) {
      expect(opFieldsProblem('act', { ...ACT, packets })).toBeNull();
    }
  });

  it('the schema runs first: a wrong type is the schema\'s problem, reported as such', () => {
    expect(checkSeedDeskArgs({ op: 'inspect', id: 5 })).toMatchObject({ ok: false, stage: 'schema' });
  });
});
