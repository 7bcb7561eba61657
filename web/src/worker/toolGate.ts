import type { ApprovalPolicy } from '../protocol/messages';
import { DEFAULT_APPROVAL_MODE, resolveApproval, type ApprovalMode, type ApprovalResolution, type ApprovalTier } from './approval';
import { checkArguments, type JsonSchema } from './omp/argumentCheck';

export type { ApprovalPolicy, ApprovalMode };

/** What the host knows of a registered tool before running it. */
export interface GatedTool {
  readonly name: string;
  readonly parameters: JsonSchema;
  /** The declared tier; none means exec, as in the host. */
  readonly approval?: ApprovalTier;
}

export interface GateOptions {
  /** The user's `tools.approval.<tool>`, or null when none is set (the host's default). */
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
  | { readonly kind: 'ask'; readonly prompt: string; readonly args: unknown; readonly approval: ApprovalResolution }
  | { readonly kind: 'run'; readonly args: unknown; readonly approval: ApprovalResolution };

export const deniedByUser = (name: string): string => `Tool call denied by user: ${name}`;

/**
 * (1) the arguments against the tool's own JSON Schema (with the host's repairs), (2) host
 * approval, resolved as the host resolves it for the tool's declared tier (mode and user policy).
 * Only then does the tool's code see the call. A prompt needs a UI: without one the call fails
 * closed, as the host does.
 */
export function gateToolCall(tool: GatedTool, raw: unknown, options: GateOptions): GateVerdict {
  let args = raw;
  if (!options.skipSchema) {
    const check = checkArguments(tool.name, tool.parameters, raw);
    if (!check.ok) return { kind: 'invalid', message: check.message };
    args = check.args;
  }
  const mode = options.mode ?? DEFAULT_APPROVAL_MODE;
  const approval = resolveApproval(tool.approval === undefined ? {} : { tier: tool.approval }, mode, options.policy);
  if (approval.policy === 'deny') {
    return {
      kind: 'blocked',
      approval,
      message: `Tool "${tool.name}" is blocked by user policy.\nTo allow: remove "tools.approval.${tool.name}: deny" from config.`,
    };
  }
  if (approval.policy === 'prompt') {
    if (!options.interactive) {
      return {
        kind: 'blocked',
        approval,
        message: `Tool "${tool.name}" requires approval but no interactive UI available.\nOptions:\n  1. Set tools.approvalMode: yolo in /settings\n  2. Add tools.approval.${tool.name}: allow to config\n  3. Use an interactive UI to approve the tool call`,
      };
    }
    // The host's prompt is its title alone; the page shows why it asks from `approval` (data).
    return { kind: 'ask', args, approval, prompt: `Allow tool: ${tool.name}` };
  }
  return { kind: 'run', args, approval };
}

/** Arguments may be anything (a BigInt, an own non-function toString): describing them must not throw. */
export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return `(arguments that cannot be shown as JSON: ${typeof value})`;
  }
}
