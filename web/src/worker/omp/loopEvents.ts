import type { HostCore } from '../hostCore';
import { emit } from './eventEmit';

/**
 * The agent loop's notifications around the messages and tool calls the host records, with the
 * objects OMP 18.2.3 gives extensions (pi-coding-agent session/agent-session.ts
 * `#emitExtensionEvent`; pi-agent-core agent-loop.ts pushes them). Each runs the handlers as
 * the runner's `emit` does (eventEmit.ts): awaited one after another, a throw shown as the
 * extension's error, a dialog answered as cancelled. OMP's loop does not wait for these handlers
 * (agent-core calls its subscriber fire-and-forget); the page does, so they finish in order.
 */

type LoopEvent = { readonly type: string };

/**
 * `message_end`'s message: a detached copy (agent-session.ts `cloneMessageEndNotification`), so
 * a handler that changes it changes nothing the host keeps; `message_start` gets the message itself.
 */
function detached(message: unknown): unknown {
  try {
    return structuredClone(message);
  } catch {
    return JSON.parse(JSON.stringify(message)) as unknown;
  }
}

/** A message the loop records: `message_start`, then `message_end` (agent-loop.ts `emitInputMessages`, the tool results). */
export async function emitMessage(core: HostCore, message: unknown): Promise<void> {
  await emit(core.extensions, { type: 'message_start', message } as LoopEvent);
  await emit(core.extensions, { type: 'message_end', message: detached(message) } as LoopEvent);
}

/**
 * An assistant message recorded: `message_start` now. With tool calls its `message_end` waits
 * until its first call has been prepared (argument check and `tool_call`), as OMP's loop prepares
 * a reply's calls before it ends the message; without, it ends at once.
 */
export async function startAssistantMessage(core: HostCore, message: unknown, hasCalls: boolean): Promise<void> {
  await endWaitingMessage(core);
  await emit(core.extensions, { type: 'message_start', message } as LoopEvent);
  if (hasCalls) core.agent.unendedMessage = message;
  else await emit(core.extensions, { type: 'message_end', message: detached(message) } as LoopEvent);
}

/** The waiting assistant message's `message_end`, if one waits (a call prepared, the next message, the run's end). */
export async function endWaitingMessage(core: HostCore): Promise<void> {
  const message = core.agent.unendedMessage;
  if (message === null) return;
  core.agent.unendedMessage = null;
  await emit(core.extensions, { type: 'message_end', message: detached(message) } as LoopEvent);
}

/** agent-loop.ts `runTool`/`emitToolResult`: before the tool's execute (and the approval gate inside it), with the arguments it will run with. */
export async function emitExecutionStart(core: HostCore, toolCallId: string, toolName: string, args: unknown): Promise<void> {
  await endWaitingMessage(core);
  await emit(core.extensions, { type: 'tool_execution_start', toolCallId, toolName, args, intent: undefined } as LoopEvent);
}

/**
 * The tool's `onUpdate(partial)` during execute (agent-loop.ts `runTool`): `tool_execution_update`
 * with the arguments it runs with and the partial result, read as the loop's `coerceToolResult`
 * reads one (content that is not an array becomes OMP's error text; details `{}` when left out;
 * OMP also checks each content block, the page passes them on as given). Not awaited, as the
 * tool's call of `onUpdate` returns at once; its handlers still run in order.
 */
export function emitExecutionUpdate(core: HostCore, toolCallId: string, toolName: string, args: unknown, partial: unknown): void {
  const raw = typeof partial === 'object' && partial !== null ? (partial as Record<string, unknown>) : null;
  const details = raw && 'details' in raw ? raw['details'] : {};
  const partialResult = Array.isArray(raw?.['content'])
    ? { content: raw['content'], details }
    : { content: [{ type: 'text', text: 'Tool returned an invalid result: missing content array.' }], details, isError: true };
  void emit(core.extensions, { type: 'tool_execution_update', toolCallId, toolName, args, partialResult } as LoopEvent);
}

/** After execute and `tool_result`, before the result message: the result as recorded (`content`, `details`) and `isError`. */
export async function emitExecutionEnd(core: HostCore, toolCallId: string, toolName: string, result: { readonly content: unknown; readonly details: unknown }, isError: boolean): Promise<void> {
  await emit(core.extensions, { type: 'tool_execution_end', toolCallId, toolName, result: { content: result.content, details: result.details }, isError } as LoopEvent);
}

/**
 * extensions/wrapper.ts: a call whose approval resolves to "prompt" tells `tool_approval_requested`
 * before it asks (no `reason`: the page's tools declare a tier, never a reason), and
 * `tool_approval_resolved` with the answer: "denied by user", or "no interactive UI available"
 * when the host cannot ask.
 */
export async function emitApprovalRequested(core: HostCore, toolCallId: string, toolName: string): Promise<void> {
  await emit(core.extensions, { type: 'tool_approval_requested', sessionId: core.sessionId, toolName, toolCallId, approvalMode: core.approvalMode } as LoopEvent);
}

export async function emitApprovalResolved(core: HostCore, toolCallId: string, toolName: string, approved: boolean, reason?: string): Promise<void> {
  await emit(core.extensions, { type: 'tool_approval_resolved', sessionId: core.sessionId, toolName, toolCallId, approved, ...(reason ? { reason } : {}) } as LoopEvent);
}
