/**
 * The host's approval resolution (OMP `tools/approval.ts` `resolveApproval`), as a pure function.
 * Tiers rank read < write < exec; a tool that declares no tier counts as exec. The mode sets the
 * highest tier that runs without a prompt; a user policy for the tool overrides the mode, except
 * that a deny (the tool's or the user's) always wins.
 */

import type { ApprovalDecision, ApprovalMode, ApprovalSource, ApprovalTier } from '../../../extension/ompApi';

export { APPROVAL_MODES, APPROVAL_TIERS, DEFAULT_APPROVAL_MODE, type ApprovalDecision, type ApprovalMode, type ApprovalTier } from '../../../extension/ompApi';

/** What a tool declares: a tier, optionally with its own policy or an override. */
export interface ToolApproval {
  readonly tier?: ApprovalTier;
  readonly policy?: ApprovalDecision;
  readonly override?: boolean;
}

export interface ApprovalResolution {
  readonly policy: ApprovalDecision;
  readonly tier: ApprovalTier;
  readonly source: ApprovalSource;
}

const TIER_RANK: Readonly<Record<ApprovalTier, number>> = { read: 0, write: 1, exec: 2 };
const MAX_TIER: Readonly<Record<ApprovalMode, ApprovalTier>> = { 'always-ask': 'read', write: 'write', yolo: 'exec' };

/** `userPolicy` null means no `tools.approval.<tool>` entry at all. */
export function resolveApproval(tool: ToolApproval, mode: ApprovalMode, userPolicy: ApprovalDecision | null): ApprovalResolution {
  const tier = tool.tier ?? 'exec';
  const toolPolicy = tool.policy;
  if (toolPolicy === 'deny') return { policy: 'deny', tier, source: 'tool' };
  if (userPolicy === 'deny') return { policy: 'deny', tier, source: 'user' };
  if (mode === 'yolo') {
    if (toolPolicy === 'allow' || toolPolicy === 'prompt') return { policy: toolPolicy, tier, source: 'tool' };
    if (userPolicy !== null) return { policy: userPolicy, tier, source: 'user' };
    return { policy: 'allow', tier, source: 'mode' };
  }
  if (tool.override === true) return { policy: toolPolicy === 'allow' ? 'allow' : 'prompt', tier, source: 'tool' };
  if (toolPolicy === 'allow' || toolPolicy === 'prompt') return { policy: toolPolicy, tier, source: 'tool' };
  if (userPolicy !== null) return { policy: userPolicy, tier, source: 'user' };
  return { policy: TIER_RANK[tier] <= TIER_RANK[MAX_TIER[mode]] ? 'allow' : 'prompt', tier, source: 'mode' };
}
