import { checkSeedDeskArgs, SEED_DESK_APPROVAL_TIER, SEED_DESK_TOOL_NAME } from '$domain/tool/schema';

import type { ApprovalPolicy } from '../protocol/messages';
import { DEFAULT_APPROVAL_MODE, resolveApproval, type ApprovalMode, type ApprovalResolution } from './approval';

export type { ApprovalPolicy, ApprovalMode };

export interface GateOptions {
  /** The user's `tools.approval.seed_desk`, or null when none is set (the host's default). */
  readonly policy: ApprovalPolicy | null;
  /** The host's `tools.approvalMode`; the host's default (yolo) when left out. */
  readonly mode?: ApprovalMode;
  readonly interactive: boolean;
  /** Demo switch: let malformed arguments through to show that the domain refuses them too. */
  readonly skipSchema: boolean;
}

/** What the host does with a call before the extension's code runs, in the host's order. */
export type GateVerdict =
  | { readonly kind: 'invalid'; readonly message: string }
  | { readonly kind: 'blocked'; readonly message: string; readonly approval: ApprovalResolution }
  | { readonly kind: 'ask'; readonly prompt: string; readonly approval: ApprovalResolution }
  | { readonly kind: 'run'; readonly approval: ApprovalResolution };

export const DENIED_BY_USER = `Tool call denied by user: ${SEED_DESK_TOOL_NAME}`;

/**
 * (1) argument schema, (2) host approval, resolved as the host resolves it for the `write` tier
 * (mode and user policy). Only then does the domain see the call. A prompt needs a UI: without
 * one the call fails closed, as the host does.
 */
export function gateToolCall(args: unknown, options: GateOptions): GateVerdict {
  if (!options.skipSchema) {
    const check = checkSeedDeskArgs(args);
    if (!check.ok) {
      return {
        kind: 'invalid',
        message: `Validation failed for tool "${SEED_DESK_TOOL_NAME}":\n${check.problems.map((problem) => `  - ${problem}`).join('\n')}\n\nReceived arguments:\n${safeJson(args)}`,
      };
    }
  }
  const mode = options.mode ?? DEFAULT_APPROVAL_MODE;
  const approval = resolveApproval({ tier: SEED_DESK_APPROVAL_TIER }, mode, options.policy);
  if (approval.policy === 'deny') {
    return {
      kind: 'blocked',
      approval,
      message: `Tool "${SEED_DESK_TOOL_NAME}" is blocked by user policy.\nTo allow: remove "tools.approval.${SEED_DESK_TOOL_NAME}: deny" from config.`,
    };
  }
  if (approval.policy === 'prompt') {
    if (!options.interactive) {
      return { kind: 'blocked', approval, message: `Tool "${SEED_DESK_TOOL_NAME}" requires approval but no interactive UI available.` };
    }
    const why = approval.source === 'user' ? `tools.approval.${SEED_DESK_TOOL_NAME}: prompt` : `tier ${SEED_DESK_APPROVAL_TIER} is above what approval mode ${mode} runs unasked`;
    return { kind: 'ask', approval, prompt: `Allow tool: ${SEED_DESK_TOOL_NAME}\nReason: tier ${SEED_DESK_APPROVAL_TIER} (${SEED_DESK_TOOL_NAME} is declared ${SEED_DESK_APPROVAL_TIER} for every operation); ${why}\nArguments: ${safeJson(args)}` };
  }
  return { kind: 'run', approval };
}

/** Arguments may be anything (a BigInt, an own non-function toString): describing them must not throw. */
function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return `(arguments that cannot be shown as JSON: ${typeof value})`;
  }
}
