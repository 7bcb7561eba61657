import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { seedDeskJsonSchema } from './jsonSchema';
import { checkSeedDeskArgs } from './opFields';
import { expectProviderShape } from './providerShape.testkit';
import {
  checkSeedDeskParams,
  SEED_DESK_APPROVAL_TIER,
  SEED_DESK_OPS,
  SEED_DESK_TOOL_DESCRIPTION,
  SEED_DESK_TOOL_NAME,
  SeedDeskParamsSchema,
} from './schema';

const ACT = { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: 's:root' } as const;

function problems(raw: unknown): string[] {
  const checked = checkSeedDeskParams(raw);
  expect(checked.ok).toBe(false);
  return checked.ok ? [] : checked.problems;
}

describe('the tool declaration', () => {
  it('is seed_desk, approval tier write, four ops', () => {
    expect(SEED_DESK_TOOL_NAME).toBe('seed_desk');
    expect(SEED_DESK_APPROVAL_TIER).toBe('write');
    expect([...SEED_DESK_OPS]).toEqual(['discover', 'query', 'inspect', 'act']);
  });

  // A model gets only the result's text (pi sends no details): the description must not send it to details.
  it('tells the model to send the revision back and to read the result text, never details', () => {
    expect(SEED_DESK_TOOL_DESCRIPTION).toContain('expectedRevision');
    expect(SEED_DESK_TOOL_DESCRIPTION).toMatch(/text of each result is all you receive/);
    expect(SEED_DESK_TOOL_DESCRIPTION).not.toContain('details');
  });
});

describe('the registered parameters: the shape every provider accepts', () => {
  it('z.toJSONSchema of the zod schema is one object with op a string enum', () => {
    expectProviderShape(z.toJSONSchema(SeedDeskParamsSchema) as Record<string, unknown>);
  });

  it('the JSON Schema file the extension and the worker register is too, without $schema', () => {
    expectProviderShape(seedDeskJsonSchema);
    expect(seedDeskJsonSchema).not.toHaveProperty('$schema');
    expect(JSON.parse(JSON.stringify(seedDeskJsonSchema))).toEqual(seedDeskJsonSchema);
  });

  it('says in each field which op needs it, and keeps packets a number so 0, -1 and 1.5 reach the desk', () => {
    const properties = seedDeskJsonSchema['properties'] as Record<string, Record<string, unknown>>;
    expect(Object.keys(properties)).toEqual(['op', 'family', 'id', 'action', 'packets', 'expectedRevision']);
    expect(properties['family']?.['description']).toMatch(/query/);
    expect(properties['id']?.['description']).toMatch(/inspect and act/);
    for (const field of ['action', 'packets', 'expectedRevision']) expect(properties[field]?.['description']).toMatch(/act/);
    expect(properties['action']).toMatchObject({ type: 'string', enum: ['reserve', 'release'] });
    expect(properties['packets']?.['type']).toBe('number');
  });
});

describe('checkSeedDeskParams (the schema alone): accepted shapes', () => {
  it.each([
    [{ op: 'discover' }],
    [{ op: 'query' }],
    [{ op: 'query', family: 'bean' }],
    [{ op: 'inspect', id: 'basil-genovese' }],
    [ACT],
    [{ ...ACT, action: 'release' }],
  ])('%j', (raw) => {
    expect(checkSeedDeskParams(raw)).toEqual({ ok: true, params: raw });
  });

  it('leaves value judgements to the domain: a wrong id, count or revision still passes', () => {
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
      expect(checkSeedDeskParams(raw).ok).toBe(true);
    }
  });

  // The flat object cannot say which op needs which field: these pass the schema, and the tool's own check stops them (opFields.test.ts).
  it.each([[{ op: 'inspect' }], [{ op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1 }], [{ op: 'discover', id: 'basil-genovese' }], [{ op: 'query', packets: 1 }]])(
    'a field missing or out of place for its op passes the schema: %j',
    (raw) => {
      expect(checkSeedDeskParams(raw).ok).toBe(true);
      expect(checkSeedDeskArgs(raw)).toMatchObject({ ok: false, stage: 'tool' });
    },
  );
});

describe('checkSeedDeskParams (the schema alone): what it still stops', () => {
  it.each([[{ ...ACT, actor: 'human' }], [{ op: 'query', extra: 1 }], [{ op: 'discover', expected_revision: 'x' }]])('an unknown key: %j', (raw) => {
    expect(problems(raw).join('\n')).toMatch(/Unrecognized key/);
  });

  it('an unknown key read from JSON text (__proto__)', () => {
    expect(checkSeedDeskParams(JSON.parse('{"op":"discover","__proto__":{"op":"act"}}')).ok).toBe(false);
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

  it.each([[{}], [{ family: 'bean' }], [{ op: 'Query' }], [{ op: 'reserve' }], [{ op: 3 }]])('a missing or unknown op: %j', (raw) => {
    expect(problems(raw).some((p) => p.startsWith('op: '))).toBe(true);
  });

  it.each([[null], [undefined], ['{"op":"query"}'], [[{ op: 'query' }]], [42]])('not an object: %j', (raw) => {
    expect(problems(raw).length).toBeGreaterThan(0);
  });
});
