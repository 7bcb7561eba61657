import { assistantMessageEntry, toolResultEntry } from '$domain/journal/entry';
import { SEED_DESK_TOOL_NAME } from '$domain/tool/schema';
import { ToolDetailsSchema, type ModelCallRef, type ToolCallOutcome } from '../protocol/messages';
import type { ApprovalResolution } from './approval';
import type { HostCore } from './hostCore';
import type { JsonSchema } from './omp/argumentCheck';
import { noteAssistant, noteToolResult } from './omp/agentRun';
import { emitToolCall, emitToolResult } from './omp/eventEmit';
import { emitApprovalRequested, emitApprovalResolved, emitExecutionEnd, emitExecutionStart, emitExecutionUpdate } from './omp/loopEvents';
import { deniedByUser, gateToolCall, safeJson, type GateOptions, type GatedTool, type GateVerdict } from './toolGate';

type Stage = 'schema' | 'approval' | 'domain';

interface HostToolResult {
  readonly content: readonly { readonly type: 'text'; readonly text: string }[];
  readonly details: unknown;
  readonly isError: boolean;
}

/**
 * A model's call of a registered tool, recorded as the host records it: an assistant message with
 * the toolCall block, then (after the host's schema and approval gates and the tool's own code) a
 * toolResult message. Whatever the tool appends lands between the two. The Tool call panel calls
 * `seed_desk`; any registered tool would go the same way. A real model's call (`call`) is already in
 * the assistant message the page recorded (`modelTurn.ts`): its result goes under the model's id.
 */
export async function callTool(core: HostCore, argsText: string, skipSchema: boolean, target: string | ModelCallRef = SEED_DESK_TOOL_NAME): Promise<ToolCallOutcome> {
  const call = typeof target === 'string' ? undefined : target;
  const name = typeof target === 'string' ? target : target.name;
  if (core.pendingApproval) return { kind: 'failed', text: `Another ${core.pendingApproval.toolName} call is waiting for approval: answer that prompt first.` };
  let args: unknown;
  try {
    args = JSON.parse(argsText);
  } catch (error) {
    return { kind: 'failed', text: `The tool arguments are not valid JSON, so no call was made: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (core.writeFailure !== null) return { kind: 'failed', text: core.blockedText() };
  const callId = call?.id ?? `call_${core.ids.entryId()}${core.ids.entryId()}`;
  if (!call) {
    const entry = assistantMessageEntry([{ type: 'toolCall', id: callId, name, arguments: args }], core.place(), 'toolUse');
    core.appendNow(entry);
    await noteAssistant(core, entry);
  }

  const tool = registered(core, name);
  if (!tool) {
    await emitExecutionStart(core, callId, name, args);
    return finishCall(core, callId, name, errorResult(`Tool ${name} not found`), 'schema');
  }
  const options: GateOptions = { policy: core.approvalPolicy, mode: core.approvalMode, interactive: core.interactive, skipSchema };
  const verdict = await afterToolCallEvent(core, tool, callId, gateToolCall(tool, args, options), options);
  // OMP's loop tells tool_execution_start once a call is prepared (argument check, tool_call), before the approval gate and execute.
  await emitExecutionStart(core, callId, name, 'args' in verdict ? verdict.args : args);
  if (verdict.kind === 'extension-blocked') return withApproval(await finishCall(core, callId, name, errorResult(verdict.reason, {}), 'approval'), verdict.approval);
  switch (verdict.kind) {
    case 'invalid':
      return finishCall(core, callId, name, errorResult(verdict.message, { isError: true, error: verdict.message }), 'schema');
    case 'blocked':
      // A call that needs approval where the host cannot ask: the wrapper tells both approval events first.
      if (verdict.approval.policy === 'prompt') {
        await emitApprovalRequested(core, callId, name);
        await emitApprovalResolved(core, callId, name, false, 'no interactive UI available');
      }
      return withApproval(await finishCall(core, callId, name, errorResult(verdict.message), 'approval'), verdict.approval);
    case 'ask': {
      await emitApprovalRequested(core, callId, name);
      const failure = await core.settleWrites();
      if (failure !== null) return { kind: 'failed', text: failure };
      core.pendingApproval = { callId, toolName: name, args: verdict.args, prompt: verdict.prompt, approval: verdict.approval };
      return { kind: 'approval', callId, prompt: verdict.prompt, approval: verdict.approval };
    }
    case 'run':
      return withApproval(await executeTool(core, callId, name, verdict.args), verdict.approval);
  }
}

/** The learner's answer to the host's approval prompt: the waiting call runs, or gets the host's denial. */
export async function answerApproval(core: HostCore, callId: string, approved: boolean): Promise<ToolCallOutcome> {
  const pending = core.pendingApproval;
  if (!pending || pending.callId !== callId) return { kind: 'failed', text: 'No tool call is waiting for this approval.' };
  if (core.writeFailure !== null) return { kind: 'failed', text: core.blockedText() };
  core.pendingApproval = null;
  await emitApprovalResolved(core, callId, pending.toolName, approved, approved ? undefined : 'denied by user');
  if (!approved) return withApproval(await finishCall(core, callId, pending.toolName, errorResult(deniedByUser(pending.toolName)), 'approval'), pending.approval);
  return withApproval(await executeTool(core, callId, pending.toolName, pending.args), pending.approval);
}

/**
 * OMP's `tool_call` event (agent-session.ts `#beforeToolCall`): after the argument check, before
 * the approval gate, and never for a call the user's policy denies. A handler's `block` ends the
 * call with its reason as the result (the loop's ToolCallBlockedError, recorded as a thrown error
 * is); a handler's `input` replaces the arguments and is checked against the schema again.
 */
async function afterToolCallEvent(core: HostCore, tool: GatedTool, callId: string, verdict: GateVerdict, options: GateOptions): Promise<GateVerdict | { readonly kind: 'extension-blocked'; readonly reason: string; readonly args: unknown; readonly approval: ApprovalResolution }> {
  if (verdict.kind === 'invalid' || verdict.approval.policy === 'deny') return verdict;
  const input = verdict.kind === 'blocked' ? undefined : verdict.args;
  const answer = await emitToolCall(core.extensions, { type: 'tool_call', toolName: tool.name, toolCallId: callId, input: input ?? {} });
  if (answer.block) return { kind: 'extension-blocked', reason: answer.reason, args: input, approval: verdict.approval };
  return answer.input === undefined ? verdict : gateToolCall(tool, answer.input, options);
}

/** The tool a call reaches: registered and active (`pi.setActiveTools`); an inactive one is "not found", as OMP's agent loop says. */
function registered(core: HostCore, name: string): GatedTool | null {
  const tool = core.extensions.isActiveTool(name) ? core.extensions.tools.get(name)?.definition : undefined;
  if (!tool) return null;
  return { name: tool.name, parameters: tool.parameters as JsonSchema, ...(tool.approval ? { approval: tool.approval } : {}) };
}

/** The tool's own code; a throw becomes an error result with the message as its text, as in the host. */
async function executeTool(core: HostCore, callId: string, name: string, args: unknown): Promise<ToolCallOutcome> {
  const run = core.extensions.runTool(name, callId, args, (partial) => emitExecutionUpdate(core, callId, name, args, partial));
  if (!run) return finishCall(core, callId, name, errorResult(`Tool ${name} not found`), 'domain');
  await run.settle();
  const result = run.result;
  if (result === null) return finishCall(core, callId, name, errorResult(`Tool ${name} did not finish.`), 'domain');
  // A throw becomes the bare message with empty details, as the host's agent loop records it.
  const recorded = result.ok ? asToolResult(result.value) : errorResult(result.error, {});
  // OMP's `tool_result` (extensions/wrapper.ts, after execute, a throw included): a handler's content, details or isError replace the call's.
  const changed = await emitToolResult(core.extensions, { type: 'tool_result', toolName: name, toolCallId: callId, input: args, content: [...recorded.content], details: recorded.details, isError: recorded.isError });
  return finishCall(core, callId, name, changed ? asToolResult(changed) : recorded, 'domain');
}

/** A tool's return value, read as the host reads it: text parts, details as they are, `isError` if set. */
function asToolResult(value: unknown): HostToolResult {
  if (typeof value !== 'object' || value === null || !Array.isArray((value as { content?: unknown }).content)) {
    return errorResult(`The tool returned ${safeJson(value)}, not a result with content.`);
  }
  const { content, details, isError } = value as { content: unknown[]; details?: unknown; isError?: unknown };
  const texts = content.flatMap((part) => (typeof part === 'object' && part !== null && (part as { type?: unknown }).type === 'text' ? [{ type: 'text' as const, text: String((part as { text?: unknown }).text) }] : []));
  return { content: texts, details, isError: isError === true };
}

async function finishCall(core: HostCore, callId: string, name: string, result: HostToolResult, stage: Stage): Promise<ToolCallOutcome> {
  const text = result.content.map((part) => part.text).join('\n');
  const details = result.details;
  await emitExecutionEnd(core, callId, name, result, result.isError);
  if (core.writeFailure === null) {
    const entry = toolResultEntry({ toolCallId: callId, toolName: name, content: [...result.content], details, isError: result.isError }, core.place());
    core.appendNow(entry);
    await noteToolResult(core, entry);
  }
  const failure = await core.settleWrites();
  if (failure !== null) return { kind: 'failed', text: failure };
  const parsed = result.isError ? null : ToolDetailsSchema.safeParse(details);
  return { kind: 'result', callId, stage, isError: result.isError, text, details: parsed?.success ? parsed.data : null };
}

/** The approval resolution travels with the call's outcome, so the page can say which gate decided. */
function withApproval(outcome: ToolCallOutcome, approval: ApprovalResolution): ToolCallOutcome {
  return outcome.kind === 'result' ? { ...outcome, approval } : outcome;
}

function errorResult(message: string, details?: unknown): HostToolResult {
  return { content: [{ type: 'text', text: message }], details, isError: true };
}
