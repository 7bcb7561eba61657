/**
 * The host's order of checks before the seed desk code sees a call: (1) the arguments against the
 * tool's own JSON Schema, with the host's repairs, (2) host approval for the tool's declared tier
 * (deny, prompt with or without a UI, allow). Pure: no storage, no domain. Texts are the host's
 * (reference/omp-host.md §4; the host's facts measured on 2026-12-04, checked again by `npm run test:host` for the repairs and the validation text).
 */
import { describe, expect, it } from 'vitest';
import { seedDeskJsonSchema } from '$domain/tool/jsonSchema';
import { SEED_DESK_APPROVAL_TIER, SEED_DESK_OPS, SEED_DESK_TOOL_NAME, type SeedDeskOp } from '$domain/tool/schema';
import { deniedByUser, gateToolCall, type ApprovalMode, type ApprovalPolicy, type GatedTool, type GateOptions, type GateVerdict } from './toolGate';

/** seed_desk as the extension registers it: its JSON Schema and its declared tier. */
const SEED_DESK: GatedTool = { name: SEED_DESK_TOOL_NAME, parameters: seedDeskJsonSchema, approval: SEED_DESK_APPROVAL_TIER };
const gate = (args: unknown, options: GateOptions): GateVerdict => gateToolCall(SEED_DESK, args, options);

const BLOCKED_BY_POLICY = 'Tool "seed_desk" is blocked by user policy.\nTo allow: remove "tools.approval.seed_desk: deny" from config.';
const noUi = (name: string) =>
  `Tool "${name}" requires approval but no interactive UI available.\nOptions:\n  1. Set tools.approvalMode: yolo in /settings\n  2. Add tools.approval.${name}: allow to config\n  3. Use an interactive UI to approve the tool call`;
const NO_UI = noUi('seed_desk');

const REVISION = '0f0f0f0f-aaaa-4bbb-8ccc-0123456789ab:root';

/** One well-formed call per op: the gate must treat each the same (tier write for all, even reads). */
const VALID: Readonly<Record<SeedDeskOp, unknown>> = {
  discover: { op: 'discover' },
  query: { op: 'query', family: 'bean' },
  inspect: { op: 'inspect', id: 'basil-genovese' },
  act: { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: REVISION },
};

/** Calls the schema stops even after the host's repairs: shape and type problems, not value problems. */
const MALFORMED: readonly (readonly [string, unknown])[] = [
  ['unknown op', { op: 'nope' }],
  ['no op', {}],
  ['not an object', 'query'],
  ['null', null],
  ['an array', [{ op: 'query' }]],
  ['act with a count in a list', { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: [1], expectedRevision: REVISION }],
  ['act with a count that is not a number', { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 'one', expectedRevision: REVISION }],
  ['act with an unknown action', { op: 'act', action: 'steal', id: 'bean-scarlet', packets: 1, expectedRevision: REVISION }],
];

/**
 * Calls the flat schema lets through because only op is required: the fields an op needs are the
 * tool's own check, which runs in the tool's code after approval (domain/tool/opFields.ts).
 */
const FIELDS_FOR_THE_TOOL: readonly (readonly [string, unknown, unknown])[] = [
  ['inspect without an id', { op: 'inspect' }, { op: 'inspect' }],
  ['inspect with a null id (an optional null is dropped)', { op: 'inspect', id: null }, { op: 'inspect' }],
  ['act without a revision', { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1 }, { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1 }],
  ['discover with an id', { op: 'discover', id: 'bean-scarlet' }, { op: 'discover', id: 'bean-scarlet' }],
];

/**
 * Calls the host repairs before validating (omp-facts §1), so they pass the schema: the verdict
 * carries the repaired arguments, and those are what approval shows and the tool runs with.
 */
const REPAIRED: readonly (readonly [string, unknown, unknown])[] = [
  ['inspect with a numeric id', { op: 'inspect', id: 7 }, { op: 'inspect', id: '7' }],
  ['query with a numeric family', { op: 'query', family: 3 }, { op: 'query', family: '3' }],
  ['query with a null family', { op: 'query', family: null }, { op: 'query' }],
  ['discover with an extra key', { op: 'discover', verbose: true }, { op: 'discover' }],
  ['an op with spaces around it', { op: ' query ' }, { op: 'query' }],
  ['the arguments as a JSON string', '{"op":"query"}', { op: 'query' }],
  [
    'act with a string count',
    { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: '1', expectedRevision: REVISION },
    { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: REVISION },
  ],
  [
    'act with a boolean count',
    { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: true, expectedRevision: REVISION },
    { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: REVISION },
  ],
];

/** Well-formed calls with wrong values: the schema lets them through to the domain. */
const WELL_FORMED_BUT_WRONG: readonly (readonly [string, unknown])[] = [
  ['an invented id', { op: 'inspect', id: 'tomato-cherry' }],
  ['zero packets', { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 0, expectedRevision: REVISION }],
  ['a fractional count', { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1.5, expectedRevision: REVISION }],
  ['an unsafe count', { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 2 ** 53, expectedRevision: REVISION }],
  ['a made-up revision', { op: 'act', action: 'release', id: 'basil-genovese', packets: 1, expectedRevision: 'whatever' }],
  ['an unknown family', { op: 'query', family: 'tomato' }],
];

const opts = (policy: ApprovalPolicy | null, interactive: boolean, skipSchema = false, mode: ApprovalMode = 'yolo'): GateOptions => ({ policy, mode, interactive, skipSchema });

type Expected = 'run' | 'ask' | 'blocked-policy' | 'blocked-no-ui';

/**
 * Every (user policy, mode, UI) triple and what the approval gate does with a call that passed the
 * schema: the host table (omp-host.md §8) for tier write, with and without a UI.
 */
const APPROVAL_TABLE: readonly (readonly [ApprovalPolicy | null, ApprovalMode, boolean, Expected])[] = (
  [
    [null, 'always-ask', 'prompt'],
    [null, 'write', 'run'],
    [null, 'yolo', 'run'],
    ['allow', 'always-ask', 'run'],
    ['allow', 'write', 'run'],
    ['allow', 'yolo', 'run'],
    ['prompt', 'always-ask', 'prompt'],
    ['prompt', 'write', 'prompt'],
    ['prompt', 'yolo', 'prompt'],
    ['deny', 'always-ask', 'deny'],
    ['deny', 'write', 'deny'],
    ['deny', 'yolo', 'deny'],
  ] as const
).flatMap(([policy, mode, resolved]) =>
  [true, false].map((interactive) => {
    const expected: Expected = resolved === 'run' ? 'run' : resolved === 'deny' ? 'blocked-policy' : interactive ? 'ask' : 'blocked-no-ui';
    return [policy, mode, interactive, expected] as const;
  }),
);

function expectApproval(verdict: GateVerdict, expected: Expected, args: unknown): void {
  switch (expected) {
    case 'run':
      expect(verdict).toMatchObject({ kind: 'run', approval: { policy: 'allow', tier: 'write' } });
      return;
    case 'blocked-policy':
      expect(verdict).toMatchObject({ kind: 'blocked', message: BLOCKED_BY_POLICY, approval: { policy: 'deny', source: 'user' } });
      return;
    case 'blocked-no-ui':
      expect(verdict).toMatchObject({ kind: 'blocked', message: NO_UI, approval: { policy: 'prompt' } });
      return;
    case 'ask':
      if (verdict.kind !== 'ask') throw new Error(`expected ask, got ${JSON.stringify(verdict)}`);
      // The host's prompt is its title; the tier and the arguments travel as data.
      expect(verdict.prompt).toBe('Allow tool: seed_desk');
      expect(verdict.approval.tier).toBe(SEED_DESK_APPROVAL_TIER);
      return;
  }
}

describe('gateToolCall: the schema comes first', () => {
  const policies = APPROVAL_TABLE.map(([policy, mode, interactive]) => [policy, mode, interactive] as const);

  describe.each(policies)('policy %s, mode %s, interactive %s', (policy, mode, interactive) => {
    it.each(MALFORMED)('%s is invalid, whatever approval would say', (_label, args) => {
      const verdict = gate(args, opts(policy, interactive, false, mode));
      expect(verdict.kind).toBe('invalid');
      if (verdict.kind !== 'invalid') return;
      expect(verdict.message.startsWith('Validation failed for tool "seed_desk":\n  - root: must be ')).toBe(true);
      expect(verdict.message).toMatch(/ \(was [^\n]*\)\n\nReceived arguments:\n/);
    });
  });

  it('the received arguments are the original ones, indented, when no repair changed them', () => {
    for (const [label, args] of MALFORMED) {
      const verdict = gate(args, opts('allow', true));
      expect(verdict.kind === 'invalid' && verdict.message.endsWith(`\n\nReceived arguments:\n${JSON.stringify(args, null, 2)}`), label).toBe(true);
    }
  });

  it('an invalid call under deny is invalid, not blocked', () => {
    expect(gate({ op: 'nope' }, opts('deny', true)).kind).toBe('invalid');
  });

  it('an invalid call under prompt without a UI is invalid, not blocked', () => {
    expect(gate({ op: 'nope' }, opts('prompt', false)).kind).toBe('invalid');
  });

  it('names the offending path for each problem, after "root: must be"', () => {
    const verdict = gate({ op: 'act', action: 'reserve', id: 'bean-scarlet', packets: [1], expectedRevision: REVISION }, opts('allow', true));
    expect(verdict.kind === 'invalid' && verdict.message).toMatch(/\n {2}- root: must be packets: expected number, received array \(was /);
    const missing = gate({ action: 'reserve' }, opts('allow', true));
    expect(missing.kind === 'invalid' && missing.message).toMatch(/\n {2}- root: must be op: is required \(was /);
  });

  it.each(FIELDS_FOR_THE_TOOL)('%s passes the schema: the tool\'s own check judges it', (_label, args, passed) => {
    expect(gate(args, opts('allow', true))).toEqual({ kind: 'run', args: passed, approval: { policy: 'allow', tier: 'write', source: 'user' } });
  });

  it.each(WELL_FORMED_BUT_WRONG)('%s passes the schema: values are the domain’s to judge', (_label, args) => {
    expect(gate(args, opts('allow', true))).toEqual({ kind: 'run', args, approval: { policy: 'allow', tier: 'write', source: 'user' } });
  });
});

describe('gateToolCall: the host repairs arguments before it validates them', () => {
  it.each(REPAIRED)('%s runs with the repaired arguments', (_label, args, repaired) => {
    const before = JSON.stringify(args);
    const verdict = gate(args, opts('allow', true));
    expect(verdict).toEqual({ kind: 'run', args: repaired, approval: { policy: 'allow', tier: 'write', source: 'user' } });
    // A new value: the caller's arguments stay as they were (the host records the original).
    expect(JSON.stringify(args)).toBe(before);
  });

  it.each(REPAIRED)('%s: the call waits for approval with the repaired arguments', (_label, args, repaired) => {
    const verdict = gate(args, opts('prompt', true));
    if (verdict.kind !== 'ask') throw new Error(`expected ask, got ${JSON.stringify(verdict)}`);
    expect(verdict.args).toEqual(repaired);
    expect(verdict.prompt).toBe('Allow tool: seed_desk');
  });
});

describe('gateToolCall: skipSchema lets malformed arguments reach approval', () => {
  describe.each(APPROVAL_TABLE)('policy %s, mode %s, interactive %s → %s', (policy, mode, interactive, expected) => {
    it.each(MALFORMED)('%s', (_label, args) => {
      const verdict = gate(args, opts(policy, interactive, true, mode));
      expectApproval(verdict, expected, args);
      // Nothing is repaired either: the tool gets exactly what the model sent.
      if (verdict.kind === 'run' || verdict.kind === 'ask') expect(verdict.args).toBe(args);
    });
  });

  it('a non-JSON-able argument still gets a prompt (no throw)', () => {
    const verdict = gate(undefined, opts('prompt', true, true));
    expect(verdict.kind === 'ask' && verdict.prompt).toBe('Allow tool: seed_desk');
  });
});

describe('gateToolCall: host approval, the same for every op (tier write)', () => {
  it('every op is declared at the write tier', () => {
    expect(SEED_DESK_APPROVAL_TIER).toBe('write');
    expect([...SEED_DESK_OPS].sort()).toEqual(['act', 'discover', 'inspect', 'query']);
  });

  describe.each(APPROVAL_TABLE)('policy %s, mode %s, interactive %s → %s', (policy, mode, interactive, expected) => {
    it.each(SEED_DESK_OPS.map((op) => [op] as const))('%s', (op) => {
      expectApproval(gate(VALID[op], opts(policy, interactive, false, mode)), expected, VALID[op]);
    });
  });

  it('deny gives the exact host text with the remove hint line', () => {
    const verdict = gate(VALID.query, opts('deny', true));
    expect(verdict.kind === 'blocked' && verdict.message.split('\n')).toEqual([
      'Tool "seed_desk" is blocked by user policy.',
      'To allow: remove "tools.approval.seed_desk: deny" from config.',
    ]);
  });

  it('prompt without a UI fails closed with exactly the host text', () => {
    expect(gate(VALID.discover, opts('prompt', false))).toMatchObject({ kind: 'blocked', message: NO_UI });
    expect(gate(VALID.discover, opts(null, false, false, 'always-ask'))).toMatchObject({ kind: 'blocked', message: NO_UI, approval: { source: 'mode' } });
  });

  it('prompt with a UI asks with the host\'s title, "Allow tool: seed_desk", and holds the arguments', () => {
    const verdict = gate(VALID.act, opts('prompt', true));
    if (verdict.kind !== 'ask') throw new Error(`expected ask, got ${JSON.stringify(verdict)}`);
    expect(verdict.prompt).toBe('Allow tool: seed_desk');
    expect(verdict.args).toEqual(VALID.act);
    expect(verdict.approval).toEqual({ policy: 'prompt', tier: 'write', source: 'user' });
  });

  it('the denial text is the host’s', () => {
    expect(deniedByUser(SEED_DESK_TOOL_NAME)).toBe('Tool call denied by user: seed_desk');
  });

  it('the gate is a pure function of its inputs (same call, same verdict)', () => {
    for (const [policy, mode, interactive] of APPROVAL_TABLE) {
      for (const op of SEED_DESK_OPS) {
        expect(gate(VALID[op], opts(policy, interactive, false, mode))).toEqual(gate(VALID[op], opts(policy, interactive, false, mode)));
      }
    }
  });
});

describe('gateToolCall: the tier is the tool’s own declaration', () => {
  const declared = (approval?: GatedTool['approval']): GatedTool => ({ name: 'probe', parameters: { type: 'object', properties: {}, additionalProperties: false }, ...(approval ? { approval } : {}) });

  it('a tool without a tier counts as exec, as in the host: write mode prompts for it, yolo runs it', () => {
    expect(gateToolCall(declared(), {}, opts(null, true, false, 'write'))).toMatchObject({ kind: 'ask', approval: { policy: 'prompt', tier: 'exec', source: 'mode' } });
    expect(gateToolCall(declared(), {}, opts(null, true, false, 'yolo'))).toMatchObject({ kind: 'run', approval: { policy: 'allow', tier: 'exec', source: 'mode' } });
  });

  it('a read tool runs unasked in write mode, and in always-ask too (the highest tier that mode runs unasked is read)', () => {
    expect(gateToolCall(declared('read'), {}, opts(null, true, false, 'write'))).toMatchObject({ kind: 'run', approval: { tier: 'read' } });
    expect(gateToolCall(declared('read'), {}, opts(null, true, false, 'always-ask'))).toMatchObject({ kind: 'run', approval: { tier: 'read' } });
  });

  it('the texts name the tool being gated', () => {
    const verdict = gateToolCall(declared('write'), { x: 1 }, opts('deny', true));
    expect(verdict.kind === 'blocked' && verdict.message).toBe('Tool "probe" is blocked by user policy.\nTo allow: remove "tools.approval.probe: deny" from config.');
    expect(gateToolCall(declared('write'), {}, opts('prompt', false))).toMatchObject({ kind: 'blocked', message: noUi('probe') });
    const asked = gateToolCall(declared('write'), { x: 1 }, opts('prompt', true));
    expect(asked.kind === 'ask' && asked.prompt.split('\n')[0]).toBe('Allow tool: probe');
    // Its own schema: the unknown key is dropped before the call waits for approval.
    expect(asked.kind === 'ask' && asked.args).toEqual({});
    const invalid = gateToolCall(declared('write'), [1], opts('allow', true));
    expect(invalid.kind === 'invalid' && invalid.message.split('\n')[0]).toBe('Validation failed for tool "probe":');
  });
});
