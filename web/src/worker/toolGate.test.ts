/**
 * The host's order of checks before the seed desk code sees a call: (1) the argument schema,
 * (2) host approval for the `write` tier (deny, prompt with or without a UI, allow). Pure: no
 * storage, no domain. Texts are the host's (reference/omp-host.md §4).
 */
import { describe, expect, it } from 'vitest';
import { SEED_DESK_APPROVAL_TIER, SEED_DESK_OPS, type SeedDeskOp } from '$domain/tool/schema';
import { DENIED_BY_USER, gateToolCall, type ApprovalMode, type ApprovalPolicy, type GateOptions, type GateVerdict } from './toolGate';

const BLOCKED_BY_POLICY = 'Tool "seed_desk" is blocked by user policy.\nTo allow: remove "tools.approval.seed_desk: deny" from config.';
const NO_UI = 'Tool "seed_desk" requires approval but no interactive UI available.';

const REVISION = '0f0f0f0f-aaaa-4bbb-8ccc-0123456789ab:root';

/** One well-formed call per op: the gate must treat each the same (tier write for all, even reads). */
const VALID: Readonly<Record<SeedDeskOp, unknown>> = {
  discover: { op: 'discover' },
  query: { op: 'query', family: 'bean' },
  inspect: { op: 'inspect', id: 'basil-genovese' },
  act: { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: REVISION },
};

/** Calls the schema stops: shape and type problems, not value problems. */
const MALFORMED: readonly (readonly [string, unknown])[] = [
  ['unknown op', { op: 'nope' }],
  ['no op', {}],
  ['not an object', 'query'],
  ['null', null],
  ['an array', [{ op: 'query' }]],
  ['inspect with a numeric id', { op: 'inspect', id: 7 }],
  ['inspect without an id', { op: 'inspect' }],
  ['query with a numeric family', { op: 'query', family: 3 }],
  ['discover with an extra key', { op: 'discover', verbose: true }],
  ['act with a string count', { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: '1', expectedRevision: REVISION }],
  ['act with an unknown action', { op: 'act', action: 'steal', id: 'bean-scarlet', packets: 1, expectedRevision: REVISION }],
  ['act without a revision', { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1 }],
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
      expect(verdict.prompt.startsWith('Allow tool: seed_desk\n')).toBe(true);
      expect(verdict.prompt).toContain(`tier ${SEED_DESK_APPROVAL_TIER}`);
      expect(verdict.prompt).toContain(JSON.stringify(args));
      return;
  }
}

describe('gateToolCall: the schema comes first', () => {
  const policies = APPROVAL_TABLE.map(([policy, mode, interactive]) => [policy, mode, interactive] as const);

  describe.each(policies)('policy %s, mode %s, interactive %s', (policy, mode, interactive) => {
    it.each(MALFORMED)('%s is invalid, whatever approval would say', (_label, args) => {
      const verdict = gateToolCall(args, opts(policy, interactive, false, mode));
      expect(verdict.kind).toBe('invalid');
      if (verdict.kind !== 'invalid') return;
      expect(verdict.message.startsWith('Validation failed for tool "seed_desk":\n  - ')).toBe(true);
      expect(verdict.message.endsWith(`\n\nReceived arguments:\n${JSON.stringify(args)}`)).toBe(true);
    });
  });

  it('an invalid call under deny is invalid, not blocked', () => {
    expect(gateToolCall({ op: 'inspect', id: 7 }, opts('deny', true)).kind).toBe('invalid');
  });

  it('an invalid call under prompt without a UI is invalid, not blocked', () => {
    expect(gateToolCall({ op: 'inspect', id: 7 }, opts('prompt', false)).kind).toBe('invalid');
  });

  it('names the offending path for each problem', () => {
    const verdict = gateToolCall({ op: 'inspect', id: 7 }, opts('allow', true));
    expect(verdict.kind === 'invalid' && verdict.message).toMatch(/\n {2}- id: /);
    const missing = gateToolCall({ op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1 }, opts('allow', true));
    expect(missing.kind === 'invalid' && missing.message).toMatch(/\n {2}- expectedRevision: /);
  });

  it.each(WELL_FORMED_BUT_WRONG)('%s passes the schema: values are the domain’s to judge', (_label, args) => {
    expect(gateToolCall(args, opts('allow', true)).kind).toBe('run');
  });
});

describe('gateToolCall: skipSchema lets malformed arguments reach approval', () => {
  describe.each(APPROVAL_TABLE)('policy %s, mode %s, interactive %s → %s', (policy, mode, interactive, expected) => {
    it.each(MALFORMED)('%s', (_label, args) => {
      expectApproval(gateToolCall(args, opts(policy, interactive, true, mode)), expected, args);
    });
  });

  it('a non-JSON-able argument still gets a prompt (text falls back, no throw)', () => {
    const verdict = gateToolCall(undefined, opts('prompt', true, true));
    expect(verdict.kind === 'ask' && verdict.prompt).toMatch(/^Allow tool: seed_desk\n[\s\S]*Arguments: undefined$/);
  });
});

describe('gateToolCall: host approval, the same for every op (tier write)', () => {
  it('every op is declared at the write tier', () => {
    expect(SEED_DESK_APPROVAL_TIER).toBe('write');
    expect([...SEED_DESK_OPS].sort()).toEqual(['act', 'discover', 'inspect', 'query']);
  });

  describe.each(APPROVAL_TABLE)('policy %s, mode %s, interactive %s → %s', (policy, mode, interactive, expected) => {
    it.each(SEED_DESK_OPS.map((op) => [op] as const))('%s', (op) => {
      expectApproval(gateToolCall(VALID[op], opts(policy, interactive, false, mode)), expected, VALID[op]);
    });
  });

  it('deny gives the exact host text with the remove hint line', () => {
    const verdict = gateToolCall(VALID.query, opts('deny', true));
    expect(verdict.kind === 'blocked' && verdict.message.split('\n')).toEqual([
      'Tool "seed_desk" is blocked by user policy.',
      'To allow: remove "tools.approval.seed_desk: deny" from config.',
    ]);
  });

  it('prompt without a UI fails closed with exactly the host text', () => {
    expect(gateToolCall(VALID.discover, opts('prompt', false))).toMatchObject({ kind: 'blocked', message: NO_UI });
    expect(gateToolCall(VALID.discover, opts(null, false, false, 'always-ask'))).toMatchObject({ kind: 'blocked', message: NO_UI, approval: { source: 'mode' } });
  });

  it('prompt with a UI asks, starting with "Allow tool: seed_desk", and shows the arguments', () => {
    const verdict = gateToolCall(VALID.act, opts('prompt', true));
    if (verdict.kind !== 'ask') throw new Error(`expected ask, got ${JSON.stringify(verdict)}`);
    const lines = verdict.prompt.split('\n');
    expect(lines[0]).toBe('Allow tool: seed_desk');
    expect(lines[1]).toMatch(/^Reason: tier write/);
    expect(lines[2]).toBe(`Arguments: ${JSON.stringify(VALID.act)}`);
  });

  it('the denial text is the host’s', () => {
    expect(DENIED_BY_USER).toBe('Tool call denied by user: seed_desk');
  });

  it('the gate is a pure function of its inputs (same call, same verdict)', () => {
    for (const [policy, mode, interactive] of APPROVAL_TABLE) {
      for (const op of SEED_DESK_OPS) {
        expect(gateToolCall(VALID[op], opts(policy, interactive, false, mode))).toEqual(gateToolCall(VALID[op], opts(policy, interactive, false, mode)));
      }
    }
  });
});
