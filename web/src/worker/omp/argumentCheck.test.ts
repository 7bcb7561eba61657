/**
 * The host's argument check, row by row against what OMP 18.2.3 was measured to do with the
 * seed_desk schema (pi-ai `validateToolArguments`, probed on 2026-12-04 with the old union by op
 * and on 2026-12-07 with the flat object; `npm run test:host` runs the same table through the real
 * host): accepted calls run with the repaired arguments, rejected ones get the host's exact text.
 * The schema is the extension's own JSON Schema document, the one `pi.typebox.Type.Unsafe` is given.
 */
import { describe, expect, it } from 'vitest';
import { seedDeskJsonSchema } from '$domain/tool/jsonSchema';
import { checkArguments, type ArgumentCheck, type JsonSchema } from './argumentCheck';

const check = (raw: unknown): ArgumentCheck => checkArguments('seed_desk', seedDeskJsonSchema, raw);

/** The measurement's base arguments, in its key order; `packets` goes last, as in the probe. */
const BASE = { op: 'act', action: 'reserve', id: 'bean-scarlet', expectedRevision: 'x' } as const;

/** The host's text for a call that still fails after the repairs: `received` is what the model is shown. */
function failure(issues: string, was: string, received: unknown): string {
  return `Validation failed for tool "seed_desk":\n  - root: must be ${issues} (was ${was})\n\nReceived arguments:\n${JSON.stringify(received, null, 2)}`;
}

/** Runs a row and checks what every row shares: the caller's value is never changed. */
function run(raw: unknown): ArgumentCheck {
  const before = JSON.stringify(raw);
  const result = check(raw);
  expect(JSON.stringify(raw)).toBe(before);
  return result;
}

function accepted(raw: unknown, normalized: unknown): void {
  const result = run(raw);
  expect(result).toEqual({ ok: true, args: normalized });
  // A new value, as the host returns (sameObj=false in every measured row).
  if (result.ok && typeof raw === 'object' && raw !== null) expect(result.args).not.toBe(raw);
}

function rejected(raw: unknown, message: string): void {
  expect(run(raw)).toEqual({ ok: false, message });
}

describe('checkArguments: the measured rows that are accepted', () => {
  it('packets:2 → OK, unchanged (a new object)', () => {
    accepted({ ...BASE, packets: 2 }, { ...BASE, packets: 2 });
  });

  it('packets:"2" / " 3 " → OK, packets 2 / 3 (a numeric string becomes a number)', () => {
    accepted({ ...BASE, packets: '2' }, { ...BASE, packets: 2 });
    accepted({ ...BASE, packets: ' 3 ' }, { ...BASE, packets: 3 });
  });

  it('packets:true → OK, packets 1', () => {
    accepted({ ...BASE, packets: true }, { ...BASE, packets: 1 });
  });

  it('packets:2.5 → OK, 2.5 (the schema says number: no integer check here)', () => {
    accepted({ ...BASE, packets: 2.5 }, { ...BASE, packets: 2.5 });
  });

  it('{op:"query", extra:1} → OK {op:"query"}: the extra key is silently removed', () => {
    accepted({ op: 'query', extra: 1 }, { op: 'query' });
  });

  it('act + extra:1 → OK, extra removed', () => {
    accepted({ ...BASE, packets: 2, extra: 1 }, { ...BASE, packets: 2 });
  });

  it('id:5 (act or inspect) → OK, id "5"', () => {
    accepted({ op: 'act', action: 'reserve', id: 5, expectedRevision: 'x', packets: 2 }, { op: 'act', action: 'reserve', id: '5', expectedRevision: 'x', packets: 2 });
    accepted({ op: 'inspect', id: 5 }, { op: 'inspect', id: '5' });
  });

  it('family:null / family:"null" → OK {op:"query"}: the optional field is removed', () => {
    accepted({ op: 'query', family: null }, { op: 'query' });
    accepted({ op: 'query', family: 'null' }, { op: 'query' });
  });

  it('family:"" → OK, kept as ""', () => {
    accepted({ op: 'query', family: '' }, { op: 'query', family: '' });
  });

  it('family:5 → OK "5"; family:["bean"] → OK "[\\"bean\\"]"', () => {
    accepted({ op: 'query', family: 5 }, { op: 'query', family: '5' });
    accepted({ op: 'query', family: ['bean'] }, { op: 'query', family: '["bean"]' });
  });

  it('op:" query " → OK op "query" (enum whitespace is trimmed)', () => {
    accepted({ op: ' query ' }, { op: 'query' });
  });

  it('action:" release " with packets:"2" or true → OK, trimmed and coerced (one object: the trim holds through the type repair)', () => {
    accepted({ ...BASE, action: ' release ', packets: '2' }, { ...BASE, action: 'release', packets: 2 });
    accepted({ ...BASE, action: ' release ', packets: true }, { ...BASE, action: 'release', packets: 1 });
  });

  // Only op is required: which fields an op needs is the tool's own check, after the host's (opFields.ts).
  it('act without packets and expectedRevision, {op:"inspect"}, {op:"discover", id} → OK as sent: the schema cannot tell', () => {
    accepted({ op: 'act', action: 'reserve', id: 'bean-scarlet' }, { op: 'act', action: 'reserve', id: 'bean-scarlet' });
    accepted({ op: 'inspect' }, { op: 'inspect' });
    accepted({ op: 'discover', id: 'x' }, { op: 'discover', id: 'x' });
  });

  it('id:null / packets:null → OK without it: every field but op is optional, and an optional null is removed', () => {
    accepted({ op: 'act', action: 'reserve', id: null, expectedRevision: 'x', packets: 2 }, { op: 'act', action: 'reserve', expectedRevision: 'x', packets: 2 });
    accepted({ ...BASE, packets: null }, { ...BASE });
  });

  it('\'{"op":"query"}\' (a string) → OK {op:"query"}: the root JSON string is parsed', () => {
    accepted('{"op":"query"}', { op: 'query' });
  });
});

describe('checkArguments: the measured rows that are rejected, with the host’s exact text', () => {
  it('packets:"abc" → expected number, received string', () => {
    const raw = { ...BASE, packets: 'abc' };
    rejected(raw, failure('packets: expected number, received string', JSON.stringify(raw), raw));
  });

  it('packets:[2] → expected number, received array', () => {
    const raw = { ...BASE, packets: [2] };
    rejected(raw, failure('packets: expected number, received array', JSON.stringify(raw), raw));
  });

  it('{op:"nope"} → op: must be one of the allowed enum values', () => {
    rejected({ op: 'nope' }, failure('op: must be one of the allowed enum values', '{"op":"nope"}', { op: 'nope' }));
  });

  it('{} → op: is required', () => {
    rejected({}, failure('op: is required', '{}', {}));
  });

  it('several issues are listed in the schema’s property order, not the value’s', () => {
    const raw = { op: 'act', packets: 'abc', action: 'Reserve' };
    rejected(raw, failure('action: must be one of the allowed enum values; packets: expected number, received string', JSON.stringify(raw), raw));
    rejected({ packets: 'abc' }, failure('op: is required; packets: expected number, received string', '{"packets":"abc"}', { packets: 'abc' }));
  });

  it('[1,2] → expected object, received array (was an array)', () => {
    rejected([1, 2], failure('expected object, received array', 'an array', [1, 2]));
  });

  it('null → expected object, received null (was null)', () => {
    rejected(null, failure('expected object, received null', 'null', null));
  });

  it('action:"Reserve" is rejected: enum values are not case-folded', () => {
    const raw = { ...BASE, action: 'Reserve', packets: 2 };
    const result = run(raw);
    if (result.ok) throw new Error(`expected a rejection, got ${JSON.stringify(result)}`);
    expect(result.message.startsWith('Validation failed for tool "seed_desk":\n  - root: must be ')).toBe(true);
    expect(result.message.endsWith(` (was ${JSON.stringify(raw)})\n\nReceived arguments:\n${JSON.stringify(raw, null, 2)}`)).toBe(true);
  });

  it('action:"Reserve" → action: must be one of the allowed enum values', () => {
    const raw = { ...BASE, action: 'Reserve', packets: 2 };
    rejected(raw, failure('action: must be one of the allowed enum values', JSON.stringify(raw), raw));
  });
});

/** seed_desk's parameters until issue 35: a root oneOf by op, no root type. Kept because the check is generic (an edited extension may register a union). */
const UNION: JsonSchema = {
  oneOf: [
    { type: 'object', properties: { op: { type: 'string', const: 'discover' } }, required: ['op'], additionalProperties: false },
    { type: 'object', properties: { op: { type: 'string', const: 'query' }, family: { type: 'string' } }, required: ['op'], additionalProperties: false },
    { type: 'object', properties: { op: { type: 'string', const: 'inspect' }, id: { type: 'string' } }, required: ['op', 'id'], additionalProperties: false },
    {
      type: 'object',
      properties: { op: { type: 'string', const: 'act' }, action: { type: 'string', enum: ['reserve', 'release'] }, id: { type: 'string' }, packets: { type: 'number' }, expectedRevision: { type: 'string' } },
      required: ['op', 'action', 'id', 'packets', 'expectedRevision'],
      additionalProperties: false,
    },
  ],
};

describe('checkArguments: a root union (the old seed_desk schema, measured 2026-12-04)', () => {
  const union = (raw: unknown) => checkArguments('seed_desk', UNION, raw);

  it('judges by the alternative whose constants match: act without packets and expectedRevision → both required', () => {
    const raw = { op: 'act', action: 'reserve', id: 'bean-scarlet' };
    expect(union(raw)).toEqual({ ok: false, message: failure('packets: is required; expectedRevision: is required', JSON.stringify(raw), raw) });
  });

  // The union judges a value by the first alternative whose constants it matches; matching none, by the first.
  it('action:"Reserve" → the measured issue list (op const; every other key must not be present)', () => {
    const raw = { ...BASE, action: 'Reserve', packets: 2 };
    expect(union(raw)).toEqual({
      ok: false,
      message: failure('op: must equal const value; action: must not be present; id: must not be present; expectedRevision: must not be present; packets: must not be present', JSON.stringify(raw), raw),
    });
  });

  it('trims inside a union only toward an alternative that accepts the value: " release " with packets "2" passes, with true not', () => {
    expect(union({ ...BASE, action: ' release ', packets: '2' })).toEqual({ ok: true, args: { ...BASE, action: 'release', packets: 2 } });
    expect(union({ ...BASE, action: ' release ', packets: true }).ok).toBe(false);
  });
});

describe('checkArguments: a repair that does not save the call (the host’s agent loop, q2-model-toolresults.out)', () => {
  // No alternative accepts it: the value is repaired toward the one it is judged by, and both are shown.
  it('packets:"abc" with extra:1 → only the packets issue; Received arguments are {original, normalized}', () => {
    const raw = { op: 'act', action: 'reserve', id: 'b', packets: 'abc', expectedRevision: 'x', extra: 1 };
    const normalized = { op: 'act', action: 'reserve', id: 'b', packets: 'abc', expectedRevision: 'x' };
    rejected(raw, failure('packets: expected number, received string', JSON.stringify(normalized), { original: raw, normalized }));
  });

  // pi-ai validation.ts truncateArgsForError.
  it('a long string is truncated at 256 characters in the received arguments', () => {
    const raw = { ...BASE, packets: 'a'.repeat(300) };
    const result = run(raw);
    expect(result.ok === false && result.message.split('\n\nReceived arguments:\n')[1]).toBe(JSON.stringify({ ...raw, packets: `${'a'.repeat(256)}… [truncated 44 chars]` }, null, 2));
  });
});

describe('checkArguments: keys named like Object.prototype members are ordinary undeclared keys', () => {
  // Declared properties are looked up as own keys only; an undeclared key is dropped, `__proto__` included.
  it('toString and constructor are dropped like any extra key', () => {
    accepted(JSON.parse('{"op":"discover","toString":"x","constructor":5}'), { op: 'discover' });
  });

  it('an own __proto__ key is dropped: the result is a plain object with only the declared keys', () => {
    const result = run(JSON.parse('{"op":"query","__proto__":{"family":"bean"}}'));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.getPrototypeOf(result.args)).toBe(Object.prototype);
    expect((result.args as Record<string, unknown>)['family']).toBeUndefined();
  });

  it('an act carried inside an own __proto__ key is not an act: op is required', () => {
    const raw = JSON.parse(`{"__proto__":${JSON.stringify({ ...BASE, packets: 1 })}}`) as unknown;
    expect(run(raw).ok).toBe(false);
  });
});

describe('checkArguments: generic, for any tool’s schema', () => {
  const schema = { type: 'object', properties: { n: { type: 'integer' }, tag: { type: 'string', enum: ['a', 'b'] } }, required: ['n'] };

  it('names the tool it checks', () => {
    const result = checkArguments('probe', schema, {});
    expect(result.ok === false && result.message.split('\n')[0]).toBe('Validation failed for tool "probe":');
  });

  it('keeps undeclared keys when the schema does not close the object', () => {
    expect(checkArguments('probe', schema, { n: 1, other: true })).toEqual({ ok: true, args: { n: 1, other: true } });
  });

  it('trims an enum string, and coerces an integer string', () => {
    expect(checkArguments('probe', schema, { n: 4, tag: ' b ' })).toEqual({ ok: true, args: { n: 4, tag: 'b' } });
    expect(checkArguments('probe', schema, { n: '4', tag: 'b' })).toEqual({ ok: true, args: { n: 4, tag: 'b' } });
  });

  it('outside a union, a trim holds through the type repair, as the host does (probed on OMP 18.2.3, 2026-12-07)', () => {
    // The first pass trims and reads numeric strings: enough here.
    expect(checkArguments('probe', schema, { n: '4', tag: ' b ' })).toEqual({ ok: true, args: { n: 4, tag: 'b' } });
    // A boolean count needs the second pass; the trimmed enum stays trimmed.
    expect(checkArguments('probe', schema, { n: true, tag: ' b ' })).toEqual({ ok: true, args: { n: 1, tag: 'b' } });
    expect(checkArguments('probe', schema, { n: true, tag: 'b' })).toEqual({ ok: true, args: { n: 1, tag: 'b' } });
  });

  // Unreachable through the worker, which JSON.parses the text; the gate's contract takes any value.
  it('arguments that cannot be shown as JSON still get a message, never a throw', () => {
    const result = checkArguments('probe', schema, { n: 10n });
    expect(result.ok).toBe(false);
    expect(result.ok === false && result.message).toMatch(/^Validation failed for tool "probe":\n {2}- root: must be n: expected integer, received bigint/);
  });
});
