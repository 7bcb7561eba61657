/**
 * `resolveApproval` against the table observed by running the real host (omp-host.md §8) for a
 * tool declaring `approval: "write"`, plus the rules around it (§4): tier ranks, a missing tier
 * counting as exec, a tool's own policy and override.
 */
import { describe, expect, it } from 'vitest';
import { APPROVAL_MODES, resolveApproval, type ApprovalDecision, type ApprovalMode } from './approval';

type Row = readonly [ApprovalMode, ApprovalDecision | null, ApprovalDecision, 'user' | 'mode'];

/** mode × user policy → policy (source): the whole §8 table, row by row. */
const HOST_TABLE: readonly Row[] = [
  ['always-ask', null, 'prompt', 'mode'],
  ['always-ask', 'allow', 'allow', 'user'],
  ['always-ask', 'prompt', 'prompt', 'user'],
  ['always-ask', 'deny', 'deny', 'user'],
  ['write', null, 'allow', 'mode'],
  ['write', 'allow', 'allow', 'user'],
  ['write', 'prompt', 'prompt', 'user'],
  ['write', 'deny', 'deny', 'user'],
  ['yolo', null, 'allow', 'mode'],
  ['yolo', 'allow', 'allow', 'user'],
  ['yolo', 'prompt', 'prompt', 'user'],
  ['yolo', 'deny', 'deny', 'user'],
];

describe('resolveApproval', () => {
  it('covers every mode and user policy of the host table exactly once', () => {
    expect(new Set(HOST_TABLE.map(([mode, user]) => `${mode}/${user}`)).size).toBe(APPROVAL_MODES.length * 4);
  });

  it.each(HOST_TABLE)('tier write, mode %s, user policy %s → %s (%s)', (mode, user, policy, source) => {
    expect(resolveApproval({ tier: 'write' }, mode, user)).toEqual({ policy, tier: 'write', source });
  });

  it('ranks tiers read < write < exec against the mode', () => {
    expect(resolveApproval({ tier: 'read' }, 'always-ask', null).policy).toBe('allow');
    expect(resolveApproval({ tier: 'exec' }, 'write', null).policy).toBe('prompt');
    expect(resolveApproval({ tier: 'exec' }, 'yolo', null).policy).toBe('allow');
  });

  it('counts a tool without a tier as exec', () => {
    expect(resolveApproval({}, 'write', null)).toEqual({ policy: 'prompt', tier: 'exec', source: 'mode' });
  });

  it("lets a tool's own deny win over everything, and a tool's allow or prompt win over the user's", () => {
    expect(resolveApproval({ tier: 'read', policy: 'deny' }, 'yolo', 'allow')).toEqual({ policy: 'deny', tier: 'read', source: 'tool' });
    expect(resolveApproval({ tier: 'write', policy: 'prompt' }, 'yolo', 'allow')).toEqual({ policy: 'prompt', tier: 'write', source: 'tool' });
    expect(resolveApproval({ tier: 'write', policy: 'allow' }, 'always-ask', 'prompt')).toEqual({ policy: 'allow', tier: 'write', source: 'tool' });
    expect(resolveApproval({ tier: 'write', policy: 'allow' }, 'always-ask', 'deny').policy).toBe('deny');
  });

  it('outside yolo, an override prompts unless the tool itself allows', () => {
    expect(resolveApproval({ tier: 'read', override: true }, 'write', 'allow')).toEqual({ policy: 'prompt', tier: 'read', source: 'tool' });
    expect(resolveApproval({ tier: 'exec', override: true, policy: 'allow' }, 'always-ask', null).policy).toBe('allow');
    expect(resolveApproval({ tier: 'read', override: true }, 'yolo', null).policy).toBe('allow');
  });
});
