import { describe, expect, it } from 'vitest';
import { FIXTURE } from './fixture';
import {
  deskRows,
  EMPTY_SNAPSHOT,
  normalizeSnapshot,
  parseSnapshot,
  reservedOf,
  SEED_DESK_CUSTOM_TYPE,
  type SnapshotParse,
} from './snapshot';

const valid = (quantities: Record<string, unknown> = {}, agentEnabled: unknown = false) => ({ version: 1, agentEnabled, quantities });

function problemOf(result: SnapshotParse): string {
  expect(result.ok).toBe(false);
  return result.ok ? '' : result.problem;
}

describe('persisted name', () => {
  it('is seed-desk-state-v1 (changing it loses every journal already written)', () => {
    expect(SEED_DESK_CUSTOM_TYPE).toBe('seed-desk-state-v1');
  });
});

describe('parseSnapshot: valid snapshots', () => {
  it('accepts an empty desk with the agent off', () => {
    expect(parseSnapshot(valid())).toEqual({ ok: true, snapshot: { version: 1, agentEnabled: false, quantities: {} } });
  });

  it('accepts the agent on and counts from 0 up to each item’s packets', () => {
    const result = parseSnapshot(valid({ 'basil-genovese': 8, 'bean-scarlet': 5, 'marigold-french': 3 }, true));
    expect(result).toEqual({
      ok: true,
      snapshot: { version: 1, agentEnabled: true, quantities: { 'basil-genovese': 8, 'bean-scarlet': 5, 'marigold-french': 3 } },
    });
  });

  it('accepts a snapshot read back from JSON text', () => {
    const result = parseSnapshot(JSON.parse('{"version":1,"agentEnabled":true,"quantities":{"bean-scarlet":1}}'));
    expect(result).toEqual({ ok: true, snapshot: { version: 1, agentEnabled: true, quantities: { 'bean-scarlet': 1 } } });
  });
});

describe('parseSnapshot: corrupt snapshots', () => {
  it.each([2, 0, '1', null, undefined])('refuses version %s', (version) => {
    expect(problemOf(parseSnapshot({ version, agentEnabled: false, quantities: {} }))).toMatch(/version/);
  });

  it('refuses a missing version', () => {
    expect(problemOf(parseSnapshot({ agentEnabled: false, quantities: {} }))).toMatch(/version/);
  });

  it.each(['true', 1, 0, null, undefined])('refuses agentEnabled %s (not a boolean)', (agentEnabled) => {
    expect(problemOf(parseSnapshot({ version: 1, agentEnabled, quantities: {} }))).toMatch(/agentEnabled/);
  });

  it('refuses a missing agentEnabled', () => {
    expect(problemOf(parseSnapshot({ version: 1, quantities: {} }))).toMatch(/agentEnabled/);
  });

  it('refuses missing quantities', () => {
    expect(problemOf(parseSnapshot({ version: 1, agentEnabled: false }))).toMatch(/quantities/);
  });

  it.each([[[]], [null], ['basil-genovese'], [3]])('refuses quantities that are not a record: %j', (quantities) => {
    expect(problemOf(parseSnapshot({ version: 1, agentEnabled: false, quantities }))).toMatch(/quantities/);
  });

  it.each([null, undefined, 'snapshot', 1, [], true])('refuses data that is not an object: %j', (data) => {
    expect(parseSnapshot(data).ok).toBe(false);
  });

  it.each(['tomato', 'Basil-genovese', ' basil-genovese', 'basil-genovese ', 'basil', 'constructor', 'toString', 'hasOwnProperty', ''])(
    'refuses the unknown quantity key %j',
    (key) => {
      const problem = problemOf(parseSnapshot(valid({ [key]: 1 })));
      expect(problem).toContain('quantities.');
      expect(problem).toContain('not a fixture id');
    },
  );

  it('refuses constructor even with a 0 count, read from JSON text', () => {
    expect(problemOf(parseSnapshot(JSON.parse('{"version":1,"agentEnabled":false,"quantities":{"constructor":0}}')))).toContain(
      'constructor',
    );
  });

  it('refuses an own __proto__ key in quantities (JSON text makes it an own key)', () => {
    const data: unknown = JSON.parse('{"version":1,"agentEnabled":false,"quantities":{"__proto__":1}}');
    expect(Object.hasOwn((data as { quantities: object }).quantities, '__proto__')).toBe(true);
    expect(problemOf(parseSnapshot(data))).toContain('__proto__');
  });

  it('refuses an own __proto__ key in quantities even beside valid ids and with an object value', () => {
    const data: unknown = JSON.parse('{"version":1,"agentEnabled":true,"quantities":{"basil-genovese":2,"__proto__":{"x":1}}}');
    expect(parseSnapshot(data).ok).toBe(false);
  });

  it('refuses an own __proto__ key at the top level (strict object)', () => {
    const data: unknown = JSON.parse('{"version":1,"agentEnabled":false,"quantities":{},"__proto__":{"agentEnabled":true}}');
    expect(problemOf(parseSnapshot(data))).toContain('__proto__');
  });

  it.each([
    ['basil-genovese', -1],
    ['basil-genovese', 1.5],
    ['basil-genovese', 9],
    ['bean-scarlet', 6],
    ['marigold-french', 4],
    ['basil-genovese', 2 ** 53],
    ['basil-genovese', Number.MAX_SAFE_INTEGER],
    ['basil-genovese', Number.NaN],
    ['basil-genovese', Number.POSITIVE_INFINITY],
    ['basil-genovese', '2'],
    ['basil-genovese', null],
    ['basil-genovese', true],
  ])('refuses %s holding %s', (id, count) => {
    expect(problemOf(parseSnapshot(valid({ [id]: count })))).toContain(id);
  });

  it('refuses a count above packets read from JSON text as 2^53', () => {
    expect(parseSnapshot(JSON.parse('{"version":1,"agentEnabled":false,"quantities":{"bean-scarlet":9007199254740992}}')).ok).toBe(false);
  });

  it.each(['note', 'revision', 'extra'])('refuses the extra top-level key %s (strict)', (key) => {
    expect(problemOf(parseSnapshot({ ...valid(), [key]: 1 }))).toContain(key);
  });

  it('names where the problem is', () => {
    expect(problemOf(parseSnapshot(valid({ 'bean-scarlet': 7 })))).toBe(
      'quantities.bean-scarlet: bean-scarlet holds 7, which is not a whole number from 0 to 5',
    );
  });
});

describe('missing keys and normalization', () => {
  it('reads a missing key as 0 reserved', () => {
    const result = parseSnapshot(valid({ 'bean-scarlet': 2 }));
    if (!result.ok) throw new Error(result.problem);
    expect(reservedOf(result.snapshot, 'basil-genovese')).toBe(0);
    expect(reservedOf(result.snapshot, 'marigold-french')).toBe(0);
    expect(reservedOf(result.snapshot, 'bean-scarlet')).toBe(2);
  });

  it('puts keys in fixture order and drops zeros', () => {
    const result = parseSnapshot(valid({ 'marigold-french': 1, 'bean-scarlet': 0, 'basil-genovese': 3 }));
    if (!result.ok) throw new Error(result.problem);
    expect(Object.keys(result.snapshot.quantities)).toEqual(['basil-genovese', 'marigold-french']);
    expect(JSON.stringify(result.snapshot)).toBe('{"version":1,"agentEnabled":false,"quantities":{"basil-genovese":3,"marigold-french":1}}');
  });

  it('makes equal states serialise equally, whatever order or zeros they came with', () => {
    const a = parseSnapshot(valid({ 'bean-scarlet': 1, 'basil-genovese': 2, 'marigold-french': 0 }, true));
    const b = parseSnapshot(valid({ 'basil-genovese': 2, 'bean-scarlet': 1 }, true));
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it('normalizeSnapshot ignores keys that are not fixture ids and inherited keys', () => {
    const inherited = Object.create({ 'basil-genovese': 4 }) as Record<string, number>;
    expect(normalizeSnapshot(true, inherited)).toEqual({ version: 1, agentEnabled: true, quantities: {} });
    expect(normalizeSnapshot(false, { tomato: 3, 'bean-scarlet': 2 })).toEqual({ version: 1, agentEnabled: false, quantities: { 'bean-scarlet': 2 } });
  });

  it('treats -0 as 0 (valid, then dropped)', () => {
    expect(parseSnapshot(valid({ 'basil-genovese': -0 }))).toEqual({ ok: true, snapshot: EMPTY_SNAPSHOT });
  });
});

describe('deskRows', () => {
  it('lists every fixture item in order with available = packets - reserved', () => {
    const rows = deskRows({ version: 1, agentEnabled: false, quantities: { 'basil-genovese': 2 } });
    expect(rows).toEqual([
      { id: 'basil-genovese', name: 'Genovese basil', family: 'basil', packets: 8, reserved: 2, available: 6 },
      { id: 'bean-scarlet', name: 'Scarlet runner bean', family: 'bean', packets: 5, reserved: 0, available: 5 },
      { id: 'marigold-french', name: 'French marigold', family: 'marigold', packets: 3, reserved: 0, available: 3 },
    ]);
  });

  it('starts from the stage-3 fixture: 8 basil, 5 bean, 3 marigold, nothing reserved, agent off', () => {
    expect(EMPTY_SNAPSHOT).toEqual({ version: 1, agentEnabled: false, quantities: {} });
    expect(deskRows(EMPTY_SNAPSHOT).map((row) => [row.id, row.available, row.reserved])).toEqual([
      ['basil-genovese', 8, 0],
      ['bean-scarlet', 5, 0],
      ['marigold-french', 3, 0],
    ]);
    expect(FIXTURE.map((item) => item.family)).toEqual(['basil', 'bean', 'marigold']);
  });
});
