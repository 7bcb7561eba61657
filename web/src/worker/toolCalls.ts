import { assistantMessageEntry, toolResultEntry } from '$domain/journal/entry';
import { SEED_DESK_TOOL_NAME } from '$domain/tool/schema';
import { planSeedDeskCall, type ToolResult } from '$domain/tool/seedDeskTool';
import type { ToolCallOutcome } from '../protocol/messages';
import type { ApprovalResolution } from './approval';
import type { HostCore } from './hostCore';
import { DENIED_BY_USER, gateToolCall } from './toolGate';

/**
 * A model's seed_desk call, recorded as the host records it: an assistant message with the
 * toolCall block, then (after the host's schema and approval gates and the domain) a toolResult
 * message. A seed desk change made by the call lands between the two.
 */
export async function callTool(core: HostCore, argsText: string, skipSchema: boolean): Promise<ToolCallOutcome> {
  if (core.pendingApproval) return { kind: 'failed', text: 'Another seed_desk call is waiting for approval: answer that prompt first.' };
  let args: unknown;
  try {
    args = JSON.parse(argsText);
  } catch (error) {
    return { kind: 'failed', text: `The tool arguments are not valid JSON, so no call was made: ${error instanceof Error ? error.message : String(error)}` };
  }
  const blocked = core.blockedOutcome();
  if (blocked) return { kind: 'failed', text: blocked.text };
  const callId = `call_${core.ids.entryId()}${core.ids.entryId()}`;
  const call = assistantMessageEntry([{ type: 'toolCall', id: callId, name: SEED_DESK_TOOL_NAME, arguments: args }], core.place(), 'toolUse');
  if (!(await core.appendConversation(call))) return { kind: 'failed', text: core.writeFailureText() };

  const verdict = gateToolCall(args, { policy: core.approvalPolicy, mode: core.approvalMode, interactive: core.interactive, skipSchema });
  switch (verdict.kind) {
    case 'invalid':
      return finishCall(core, callId, errorResult(verdict.message), 'schema');
    case 'blocked':
      return withApproval(await finishCall(core, callId, errorResult(verdict.message), 'approval'), verdict.approval);
    case 'ask':
      core.pendingApproval = { callId, args, prompt: verdict.prompt, approval: verdict.approval };
      return { kind: 'approval', callId, prompt: verdict.prompt, approval: verdict.approval };
    case 'run':
      return withApproval(await executeTool(core, callId, args), verdict.approval);
  }
}

/** The learner's answer to the host's approval prompt: the waiting call runs, or gets the host's denial. */
export async function answerApproval(core: HostCore, callId: string, approved: boolean): Promise<ToolCallOutcome> {
  const pending = core.pendingApproval;
  if (!pending || pending.callId !== callId) return { kind: 'failed', text: 'No seed_desk call is waiting for this approval.' };
  const blocked = core.blockedOutcome();
  if (blocked) return { kind: 'failed', text: blocked.text };
  core.pendingApproval = null;
  if (!approved) return withApproval(await finishCall(core, callId, errorResult(DENIED_BY_USER), 'approval'), pending.approval);
  return withApproval(await executeTool(core, callId, pending.args), pending.approval);
}

async function executeTool(core: HostCore, callId: string, args: unknown): Promise<ToolCallOutcome> {
  const leafId = core.journal.leafId;
  const expected = core.journal.state(leafId);
  const plan = planSeedDeskCall(args, expected);
  if (plan.kind === 'error') return finishCall(core, callId, errorResult(plan.message), 'domain');
  if (plan.kind === 'answer') {
    if (!plan.result.details.ok) core.notify('warning', plan.result.content[0].text);
    return finishCall(core, callId, { ...plan.result, isError: false }, 'domain');
  }
  // The store re-plans on the stored branch head inside the commit transaction; on the fast path
  // that head is `expected` itself, already planned above.
  const outcome = await core.commitSnapshot<ToolResult>(
    leafId,
    expected,
    (state) => {
      const again = state === expected ? plan : planSeedDeskCall(args, state);
      if (again.kind === 'commit') return { snapshot: again.snapshot };
      return { reason: again.kind === 'answer' ? again.result : errorToolResult(again.message) };
    },
    'agent-act',
  );
  if (outcome.kind === 'failed') return { kind: 'failed', text: outcome.text };
  if (outcome.kind === 'declined') return finishCall(core, callId, { ...outcome.reason, isError: false }, 'domain');
  return finishCall(core, callId, { ...plan.describe(outcome.state.revision), isError: false }, 'domain');
}

async function finishCall(core: HostCore, callId: string, result: ToolResult & { isError: boolean }, stage: 'schema' | 'approval' | 'domain'): Promise<ToolCallOutcome> {
  const text = result.content[0].text;
  const details = result.isError ? undefined : result.details;
  const entry = toolResultEntry({ toolCallId: callId, toolName: SEED_DESK_TOOL_NAME, content: result.content, details, isError: result.isError }, core.place());
  if (!(await core.appendConversation(entry))) return { kind: 'failed', text: core.writeFailureText() };
  if (result.isError) core.notify('error', text);
  return { kind: 'result', callId, stage, isError: result.isError, text, details: details ?? null };
}

/** The approval resolution travels with the call's outcome, so the page can say which gate decided. */
function withApproval(outcome: ToolCallOutcome, approval: ApprovalResolution): ToolCallOutcome {
  return outcome.kind === 'result' ? { ...outcome, approval } : outcome;
}

function errorToolResult(message: string): ToolResult {
  return { content: [{ type: 'text', text: message }], details: { ok: false, scope: 'seed_desk' } };
}

function errorResult(message: string): ToolResult & { isError: boolean } {
  return { ...errorToolResult(message), isError: true };
}
