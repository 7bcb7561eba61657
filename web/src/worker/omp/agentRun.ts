import type { JournalEntry } from '$domain/journal/entry';
import type { HostCore } from '../hostCore';
import type { PageModel } from '../../protocol/messages';
import type { AgentRun } from './agentRunState';
import { emit, emitBeforeAgentStart, emitInput } from './eventEmit';
import { emitMessage, endWaitingMessage, startAssistantMessage } from './loopEvents';

/**
 * The agent events of one run (a scripted agent's run or a real model's request), fired in the
 * order and with the objects OMP 18.2.3 gives them (pi-coding-agent/src/session/agent-session.ts
 * `prompt` and `#emitExtensionEvent`, pi-agent-core/src/agent-loop.ts): `input`, then
 * `before_agent_start`, `agent_start`, `turn_start`; a turn is one assistant message and the
 * results of its tool calls, and ends (`turn_end`, with that message and those results) when the
 * last result is in, and the next turn starts at once (the loop asks the model again); the run's
 * end closes an open turn and fires `agent_end` with the run's messages. The page drives the run
 * (it calls the model, or steps the scripted agent): the worker hears where it starts and ends,
 * and every message recorded meanwhile.
 */

export type AgentStart =
  | { readonly kind: 'started'; readonly prompt: string; readonly systemPrompt: string }
  /** An `input` handler returned `handled: true`: OMP sends nothing to the model, and no run starts. */
  | { readonly kind: 'handled' };

/**
 * The run starts. `prompt`: the learner's request (a scripted agent's goal); `systemPrompt`: what
 * the page would send. Returns the prompt and system prompt as the extension left them
 * (`input` may rewrite the text; `before_agent_start` may replace the system prompt, whose parts
 * OMP joins with a blank line).
 */
export async function startAgent(core: HostCore, prompt: string, systemPrompt: string, model?: PageModel): Promise<AgentStart> {
  if (core.agent.run) await endAgent(core);
  // The session's model from this request on (`ctx.model`), as OMP's session keeps the one it uses; a scripted agent's run leaves it.
  if (model) core.agent.model = model;
  const runtime = core.extensions;
  // agent-session.ts `prompt`: the input handlers see the text first (source "interactive": the page's prompt box).
  const input = await emitInput(runtime, prompt, 'interactive');
  if (input.handled) return { kind: 'handled' };
  const before = await emitBeforeAgentStart(runtime, input.text, [systemPrompt]);
  const prompted = { role: 'user', content: [{ type: 'text', text: input.text }], timestamp: Date.now() };
  const run: AgentRun = { turnIndex: 0, open: true, message: null, unanswered: new Set(), toolResults: [], messages: [prompted] };
  core.agent.run = run;
  const sent = before?.systemPrompt ?? [systemPrompt];
  // `ctx.getSystemPrompt()`: a real model's request is sent one (a scripted agent's run sends none).
  if (model) core.agent.systemPrompt = sent;
  await emit(runtime, { type: 'agent_start' });
  await emit(runtime, { type: 'turn_start', turnIndex: run.turnIndex, timestamp: Date.now() } as { type: string });
  // agent-loop.ts `emitInputMessages`: the prompt's message, inside the first turn.
  await emitMessage(core, prompted);
  return { kind: 'started', prompt: input.text, systemPrompt: sent.join('\n\n') };
}

/**
 * An assistant message was recorded (`message_start`, and `message_end` once its calls are
 * prepared: loopEvents.ts); during a run it is the open turn's, and with no tool call the turn ends.
 */
export async function noteAssistant(core: HostCore, entry: JournalEntry): Promise<void> {
  if (entry.type !== 'message') return;
  const content = (entry.message as { content?: unknown }).content;
  const calls = (Array.isArray(content) ? content : []).filter(isToolCall);
  await startAssistantMessage(core, entry.message, calls.length > 0);
  const run = core.agent.run;
  if (!run) return;
  run.message = entry.message;
  run.messages.push(entry.message);
  for (const part of calls) run.unanswered.add(part.id);
  if (run.unanswered.size === 0) await endTurn(core, run, false);
}

/** A tool result was recorded: when it is the turn's last, the turn ends and the next one starts. */
export async function noteToolResult(core: HostCore, entry: JournalEntry): Promise<void> {
  if (entry.type !== 'message') return;
  await emitMessage(core, entry.message);
  const run = core.agent.run;
  if (!run) return;
  const id = (entry.message as { toolCallId?: unknown }).toolCallId;
  if (typeof id !== 'string' || !run.unanswered.delete(id)) return;
  run.toolResults.push(entry.message);
  run.messages.push(entry.message);
  if (run.unanswered.size === 0) await endTurn(core, run, true);
}

/**
 * The run ends (the model answered, a limit or the learner stopped it, the scripted agent is
 * done): an open turn ends first. `summary`: a scripted agent's last words, which the page does not
 * record; the closing turn's message carries them, as a model's final answer would.
 */
export async function endAgent(core: HostCore, summary?: string): Promise<void> {
  const run = core.agent.run;
  await endWaitingMessage(core);
  if (!run) return;
  if (run.message === null && summary !== undefined) {
    const message = { role: 'assistant', content: [{ type: 'text', text: summary }], stopReason: 'stop', timestamp: Date.now() };
    run.message = message;
    run.messages.push(message);
    await emitMessage(core, message);
  }
  if (run.open) await endTurn(core, run, false);
  core.agent.run = null;
  await emit(core.extensions, { type: 'agent_end', messages: run.messages } as { type: string });
}

async function endTurn(core: HostCore, run: AgentRun, next: boolean): Promise<void> {
  const event = { type: 'turn_end', turnIndex: run.turnIndex, message: run.message, toolResults: run.toolResults };
  run.turnIndex += 1;
  run.message = null;
  run.toolResults = [];
  run.unanswered.clear();
  run.open = false;
  await emit(core.extensions, event);
  // The loop asks the model again after a turn with tool calls: the next turn starts now.
  if (!next || core.agent.run !== run) return;
  run.open = true;
  await emit(core.extensions, { type: 'turn_start', turnIndex: run.turnIndex, timestamp: Date.now() } as { type: string });
}

function isToolCall(part: unknown): part is { readonly type: 'toolCall'; readonly id: string } {
  return typeof part === 'object' && part !== null && (part as { type?: unknown }).type === 'toolCall' && typeof (part as { id?: unknown }).id === 'string';
}
