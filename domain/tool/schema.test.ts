import { describe, expect, it } from 'vitest';
import { seedDeskJsonSchema } from './jsonSchema';
import {
  checkSeedDeskArgs,
  SEED_DESK_APPROVAL_TIER,
  SEED_DESK_OPS,
  SEED_DESK_TOOL_DESCRIPTION,
  SEED_DESK_TOOL_NAME,

} from './schema';

const ACT = { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: 's:root' } as const;

function problems(raw: unknown): string[] {
  const checked = checkSeedDeskArgs(raw);
  expect(checked.ok).toBe(false);
  return checked.ok ? [] : checked.problems;
}

describe('the tool declaration', () => {
  it('is seed_desk, approval tier write, four ops', () => {
    expect(SEED_DESK_TOOL_NAME).toBe('seed_desk');
    expect(SEED_DESK_APPROVAL_TIER).toBe('write');
    expect([...SEED_DESK_OPS]).toEqual(['discover', 'query', 'inspect', 'act']);
  });

  it('tells the model to send the revision back and to read details.ok', () => {
    expect(SEED_DESK_TOOL_DESCRIPTION).toContain('expectedRevision');
    expect(SEED_DESK_TOOL_DESCRIPTION).toContain('details.ok');
  });
});

describe('checkSeedDeskArgs: accepted shapes', () => {
  it.each([
    [{ op: 'discover' }],
    [{ op: 'query' }],
    [{ op: 'query', family: 'bean' }],
    [{ op: 'inspect', id: 'basil-genovese' }],
    [ACT],
    [{ ...ACT, action: 'release' }],
  ])('%j', (raw) => {
    expect(checkSeedDeskArgs(raw)).toEqual({ ok: true, args: raw });
  });

  it('leaves value judgements to the domain: a wrong id, count or revision still passes the shape check', () => {
    for (const raw of [
      { ...ACT, id: 'Basil-genovese' },
      { ...ACT, packets: 0 },
      { ...ACT, packets: -1 },
      { ...ACT, packets: 1.5 },
      { ...ACT, packets: 2 ** 53 },
      { ...ACT, expectedRevision: 'COPY_THE_LATEST_RETURNED_REVISION' },
      { op: 'query', family: 'Bean' },
      { op: 'inspect', id: '__proto__' },
    ]) {
      expect(checkSeedDeskArgs(raw).ok).toBe(true);
    }
  });
});

describe('checkSeedDeskArgs: rejected shapes', () => {
  it.each([
    [{ op: 'discover', id: 'basil-genovese' }],
    [{ op: 'query', family: 'bean', id: 'x' }],
    [{ op: 'inspect', id: 'basil-genovese', packets: 1 }],
    [{ ...ACT, actor: 'human' }],
  ])('an extra key: %j', (raw) => {
    expect(problems(raw).join('\n')).toMatch(/Unrecognized key/);
  });

  it('an extra key read from JSON text (__proto__)', () => {
    expect(checkSeedDeskArgs(JSON.parse('{"op":"discover","__proto__":{"op":"act"}}')).ok).toBe(false);
  });

  it.each([
    [{ ...ACT, packets: '1' }, 'packets'],
    [{ ...ACT, packets: Number.NaN }, 'packets'],
    [{ ...ACT, id: 5 }, 'id'],
    [{ ...ACT, action: 'take' }, 'action'],
    [{ ...ACT, action: 'Reserve' }, 'action'],
    [{ ...ACT, expectedRevision: 7 }, 'expectedRevision'],
    [{ op: 'query', family: 3 }, 'family'],
    [{ op: 'query', family: null }, 'family'],
    [{ op: 'inspect', id: ['basil-genovese'] }, 'id'],
  ])('a wrong type: %j names %s', (raw, key) => {
    expect(problems(raw).some((p) => p.startsWith(`${key}: `))).toBe(true);
  });

  it.each([
    [{ op: 'inspect' }, 'id'],
    [{ op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1 }, 'expectedRevision'],
    [{ op: 'act', action: 'reserve', id: 'bean-scarlet', expectedRevision: 's:root' }, 'packets'],
    [{ op: 'act', id: 'bean-scarlet', packets: 1, expectedRevision: 's:root' }, 'action'],
  ])('a missing key: %j lacks %s', (raw, key) => {
    expect(problems(raw).some((p) => p.startsWith(`${key}: `))).toBe(true);
  });

  it.each([[{}], [{ family: 'bean' }], [{ op: 'Query' }], [{ op: 'reserve' }], [{ op: 3 }]])('a missing or unknown op: %j', (raw) => {
    expect(problems(raw).some((p) => p.startsWith('op: '))).toBe(true);
  });

  it.each([[null], [undefined], ['{"op":"query"}'], [[{ op: 'query' }]], [42]])('not an object: %j', (raw) => {
    expect(problems(raw).length).toBeGreaterThan(0);
  });
});

describe('seedDeskJsonSchema', () => {
  const schema = seedDeskJsonSchema as Record<string, unknown>;
  const variants = (schema['oneOf'] ?? schema['anyOf']) as Record<string, unknown>[];

  it('is a JSON object that round-trips through JSON text', () => {
    expect(typeof schema).toBe('object');
    expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
  });

  it('has one closed object shape per op, mentioning all four', () => {
    expect(Array.isArray(variants)).toBe(true);
    expect(variants).toHaveLength(4);
    const ops = variants.map((variant) => ((variant['properties'] as Record<string, Record<string, unknown>>)['op'] ?? {})['const']);
    expect(ops).toEqual(['discover', 'query', 'inspect', 'act']);
    for (const variant of variants) {
      expect(variant['type']).toBe('object');
      expect(variant['additionalProperties']).toBe(false);
    }
    const text = JSON.stringify(schema);
    for (const op of SEED_DESK_OPS) expect(text).toContain(`"${op}"`);
  });

  it('requires every act field and offers reserve|release', () => {
    const act = variants[3]!;
    expect(act['required']).toEqual(['op', 'action', 'id', 'packets', 'expectedRevision']);
    expect((act['properties'] as Record<string, Record<string, unknown>>)['action']?.['enum']).toEqual(['reserve', 'release']);
  });
});
