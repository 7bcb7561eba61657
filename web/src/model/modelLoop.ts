import type { AssistantMessage, AssistantMessageEvent, Context, Message, Tool, ToolResultMessage } from '@mariozechner/pi-ai';
import type { AssistantModelMessage, ModelCallRef, ModelMessage, ModelRecord, ModelTool, ToolCallOutcome } from '../protocol/messages';
import type { ModelProblem } from './modelErrors';

/**
 * One request to a real model, run as OMP's agent loop runs it: the model answers (streamed), each
 * tool call it makes goes through the host (argument check and repairs, approval, execute), the
 * model is sent the result's text (never `details`), and it answers again, until it stops calling
 * tools, a limit ends it, or the learner stops it. Every message is recorded in the journal as the
 * host's message entry, so an export holds the turn. The provider (`stream`) and the host are
 * passed in: the unit tests run the loop with neither a network nor a worker.
 */

/** What the provider layer streams: pi-ai's event stream and its final message. */
export interface ModelStreamCall extends AsyncIterable<AssistantMessageEvent> {
  result(): Promise<AssistantMessage>;
}
export type ModelStream = (context: Context, signal: AbortSignal) => ModelStreamCall;

/** The host's side of a turn: what the worker records and runs. */
export interface LoopHost {
  record(message: ModelMessage): Promise<ModelRecord>;
  /** A call through the host's gates; an approval prompt is answered before this resolves. */
  call(ref: ModelCallRef, args: string): Promise<ToolCallOutcome>;
  /**
   * The run starts in the host (OMP's `input` and `before_agent_start`, then `agent_start`): the
   * prompt and system prompt to send are the ones the extension left; `handled`: an `input`
   * handler took the prompt, so no model is asked. Left out, the loop sends its own.
   */
  start?(prompt: string, systemPrompt: string): Promise<{ readonly kind: 'started'; readonly prompt: string; readonly systemPrompt: string } | { readonly kind: 'handled' }>;
  /** The run ended, however it ended: the host closes the turn and fires `agent_end`. */
  end?(): Promise<void>;
}

export type LoopEvent =
  | { readonly type: 'reply'; readonly reply: number }
  | { readonly type: 'text'; readonly reply: number; readonly delta: string }
  /** The model's reasoning as it streams (pi-ai's `thinking_delta`: an OpenAI-compatible server's `reasoning_content` or `reasoning`, Anthropic's thinking blocks). */
  | { readonly type: 'thinking'; readonly reply: number; readonly delta: string }
  | { readonly type: 'call'; readonly reply: number; readonly id: string; readonly name: string; readonly args: Record<string, unknown> }
  | { readonly type: 'result'; readonly id: string; readonly outcome: ToolCallOutcome; readonly modelSaw: ToolResultMessage | null }
  /** A reply that was stopped, failed or ran out of tokens: the calls it had begun were never run (the host got none of them). */
  | { readonly type: 'unrun'; readonly reply: number; readonly ids: readonly string[]; readonly why: 'aborted' | 'error' | 'length' };

export type LoopEnd =
  | { readonly kind: 'answered'; readonly calls: number }
  | { readonly kind: 'limit'; readonly calls: number }
  /** The reply reached its token cap (`maxTokens`) before it finished; `unrun` counts the half-written calls it left. */
  | { readonly kind: 'length'; readonly calls: number; readonly unrun: number }
  | { readonly kind: 'stopped'; readonly calls: number; readonly recorded: boolean }
  | { readonly kind: 'provider'; readonly calls: number; readonly problem: ModelProblem; readonly recorded: boolean }
  | { readonly kind: 'host'; readonly calls: number; readonly text: string }
  /** An extension's `input` handler took the request (`handled: true`): no model was asked. */
  | { readonly kind: 'handled'; readonly calls: 0 };

export interface LoopOptions {
  readonly prompt: string;
  readonly systemPrompt: string;
  readonly tools: readonly ModelTool[];
  readonly stream: ModelStream;
  readonly host: LoopHost;
  readonly signal: AbortSignal;
  /** Tool calls before the loop ends a model that does not stop on its own; checked after each reply's calls. */
  readonly limit: number;
  readonly onEvent: (event: LoopEvent) => void;
  /** Why a reply failed, as one sentence with its fix (`modelErrors.ts`). */
  readonly explain: (message: string, streamStarted: boolean) => Promise<ModelProblem>;
}

export const DEFAULT_CALL_LIMIT = 8;

export async function runModelRequest(options: LoopOptions): Promise<LoopEnd> {
  const { host } = options;
  const start = host.start ? await host.start(options.prompt, options.systemPrompt) : ({ kind: 'started', prompt: options.prompt, systemPrompt: options.systemPrompt } as const);
  if (start.kind === 'handled') return { kind: 'handled', calls: 0 };
  try {
    // The system prompt as the extensions left it (OMP's before_agent_start), e.g. a persona added for this request.
    return await runReplies({ ...options, prompt: start.prompt, systemPrompt: start.systemPrompt });
  } finally {
    await host.end?.();
  }
}

async function runReplies(options: LoopOptions): Promise<LoopEnd> {
  const { host, signal } = options;
  const user: Message = { role: 'user', content: [{ type: 'text', text: options.prompt }], timestamp: Date.now() };
  const context: Context = { systemPrompt: options.systemPrompt, messages: [user], tools: options.tools.map(asPiTool) };
  // The request is recorded when a model first answers: a request that reached no model leaves no trace.
  let userRecorded = false;
  let calls = 0;
  for (let reply = 1; ; reply += 1) {
    if (signal.aborted) return { kind: 'stopped', calls, recorded: userRecorded };
    options.onEvent({ type: 'reply', reply });
    let started = false;
    const shown: string[] = [];
    const stream = options.stream(context, signal);
    for await (const event of stream) {
      if (event.type === 'start') started = true;
      else if (event.type === 'text_delta') options.onEvent({ type: 'text', reply, delta: event.delta });
      else if (event.type === 'thinking_delta') options.onEvent({ type: 'thinking', reply, delta: event.delta });
      else if (event.type === 'toolcall_end') {
        shown.push(event.toolCall.id);
        options.onEvent({ type: 'call', reply, id: event.toolCall.id, name: event.toolCall.name, args: event.toolCall.arguments });
      }
    }
    const message = await stream.result();
    if (message.stopReason === 'length') {
      // A reply cut at its token cap: pi-ai closes each half-written call with what parsed of its
      // arguments, so none of them is run, and none is recorded (a call in the journal always has its
      // result). The real OMP 18.2.3 pairs each with a "not executed" result and asks the model again.
      if (shown.length > 0) options.onEvent({ type: 'unrun', reply, ids: shown, why: 'length' });
      const failure = await recordAll(host, userRecorded ? [] : [userMessage(options.prompt)], withoutCalls(message));
      if (failure !== null) return { kind: 'host', calls, text: failure };
      return { kind: 'length', calls, unrun: shown.length };
    }
    if (message.stopReason === 'aborted' || message.stopReason === 'error') {
      // pi-ai closes a half-streamed call (`toolcall_end`) before it reports the abort: it is shown, and never run.
      if (shown.length > 0) options.onEvent({ type: 'unrun', reply, ids: shown, why: message.stopReason });
      // What arrived is kept as the host keeps it, without half-made tool calls: no call is left without its result.
      if (started) {
        const failure = await recordAll(host, userRecorded ? [] : [userMessage(options.prompt)], withoutCalls(message));
        if (failure !== null) return { kind: 'host', calls, text: failure };
        userRecorded = true;
      }
      if (message.stopReason === 'aborted') return { kind: 'stopped', calls, recorded: userRecorded };
      return { kind: 'provider', calls, problem: await options.explain(message.errorMessage ?? '', started), recorded: userRecorded };
    }
    const failure = await recordAll(host, userRecorded ? [] : [userMessage(options.prompt)], asRecorded(message));
    if (failure !== null) return { kind: 'host', calls, text: failure };
    userRecorded = true;
    context.messages.push(message);
    const toolCalls = message.content.flatMap((part) => (part.type === 'toolCall' ? [part] : []));
    if (toolCalls.length === 0) return { kind: 'answered', calls };
    for (const call of toolCalls) {
      const outcome = await host.call({ id: call.id, name: call.name }, JSON.stringify(call.arguments));
      calls += 1;
      if (outcome.kind !== 'result') {
        options.onEvent({ type: 'result', id: call.id, outcome, modelSaw: null });
        return { kind: 'host', calls, text: outcome.kind === 'failed' ? outcome.text : 'The call did not finish.' };
      }
      const modelSaw = toolResultForModel(call.id, call.name, outcome);
      options.onEvent({ type: 'result', id: call.id, outcome, modelSaw });
      context.messages.push(modelSaw);
    }
    if (signal.aborted) return { kind: 'stopped', calls, recorded: true };
    if (calls >= options.limit) return { kind: 'limit', calls };
  }
}

/** What OMP sends a model for a tool result: the result's text and whether it is an error. `details` stay with the host. */
export function toolResultForModel(id: string, name: string, outcome: Extract<ToolCallOutcome, { kind: 'result' }>): ToolResultMessage {
  return { role: 'toolResult', toolCallId: id, toolName: name, content: [{ type: 'text', text: outcome.text }], isError: outcome.isError, timestamp: Date.now() };
}

function asPiTool(tool: ModelTool): Tool {
  // The schema as the extension registered it: pi-ai sends it to the provider as JSON Schema.
  return { name: tool.name, description: tool.description, parameters: tool.parameters as unknown as Tool['parameters'] };
}

function userMessage(text: string): ModelMessage {
  return { role: 'user', text };
}

/** An assistant message as the host records it: its text, thinking and tool calls, who answered, why it stopped. */
export function asRecorded(message: AssistantMessage): AssistantModelMessage {
  const content: AssistantModelMessage['content'] = message.content.flatMap((part): AssistantModelMessage['content'] => {
    if (part.type === 'text') return [{ type: 'text', text: part.text }];
    if (part.type === 'thinking') return [{ type: 'thinking', thinking: part.thinking }];
    if (part.type === 'toolCall') return [{ type: 'toolCall', id: part.id, name: part.name, arguments: part.arguments }];
    return [];
  });
  return {
    role: 'assistant',
    content,
    stopReason: message.stopReason,
    api: message.api,
    provider: message.provider,
    model: message.model,
    usage: { input: message.usage.input, output: message.usage.output },
    ...(message.errorMessage === undefined ? {} : { errorMessage: message.errorMessage }),
  };
}

function withoutCalls(message: AssistantMessage): AssistantModelMessage {
  const recorded = asRecorded(message);
  return { ...recorded, content: recorded.content.filter((part) => part.type !== 'toolCall') };
}

async function recordAll(host: LoopHost, before: readonly ModelMessage[], message: ModelMessage): Promise<string | null> {
  for (const each of [...before, message]) {
    const record = await host.record(each);
    if (record.kind === 'failed') return record.text;
  }
  return null;
}
