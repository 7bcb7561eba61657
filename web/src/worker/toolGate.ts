import { checkSeedDeskArgs, SEED_DESK_APPROVAL_TIER, SEED_DESK_TOOL_NAME } from '$domain/tool/schema';

import type { ApprovalPolicy } from '../protocol/messages';

export type { ApprovalPolicy };

export interface GateOptions {
  readonly policy: ApprovalPolicy;
  readonly interactive: boolean;
  /** Demo switch: let malformed arguments through to show that the domain refuses them too. */
  readonly skipSchema: boolean;
}

/** What the host does with a call before the extension's code runs, in the host's order. */
export type GateVerdict =
  | { readonly kind: 'invalid'; readonly message: string }
  | { readonly kind: 'blocked'; readonly message: string }
  | { readonly kind: 'ask'; readonly prompt: string }
  | { readonly kind: 'run' };

export const DENIED_BY_USER = `Tool call denied by user: ${SEED_DESK_TOOL_NAME}`;

/**
 * (1) argument schema, (2) host approval for the `write` tier. Only then does the domain see
 * the call. A prompt needs a UI: without one the call fails closed, as the host does.
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
  if (options.policy === 'deny') {
    return {
      kind: 'blocked',
      message: `Tool "${SEED_DESK_TOOL_NAME}" is blocked by user policy.\nTo allow: remove "tools.approval.${SEED_DESK_TOOL_NAME}: deny" from config.`,
    };
  }
  if (options.policy === 'prompt') {
    if (!options.interactive) {
      return { kind: 'blocked', message: `Tool "${SEED_DESK_TOOL_NAME}" requires approval but no interactive UI available.` };
    }
    return { kind: 'ask', prompt: `Allow tool: ${SEED_DESK_TOOL_NAME}\nReason: tier ${SEED_DESK_APPROVAL_TIER} (${SEED_DESK_TOOL_NAME} is declared ${SEED_DESK_APPROVAL_TIER} for every operation)\nArguments: ${safeJson(args)}` };
  }
  return { kind: 'run' };
}

/** Arguments may be anything (a BigInt, an own non-function toString): describing them must not throw. */
function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return `(arguments that cannot be shown as JSON: ${typeof value})`;
  }
}
