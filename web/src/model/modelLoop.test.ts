/**
 * The real model's loop (issue 30) with a scripted provider and a scripted host: what is recorded
 * and in which order, what the model is sent back, how a limit, a Stop, a provider error and a host
 * failure end it. No network, no worker: the stream and the host are the loop's injected parts.
 */
import { describe, expect, it } from 'vitest';
import type { AssistantMessage, AssistantMessageEvent, Context, StopReason, ToolCall } from '@mariozechner/pi-ai';
import type { ModelCallRef, ModelMessage, ModelRecord, ModelTool, ToolCallOutcome } from '../protocol/messages';
import type { ModelProblem } from './modelErrors';
import { runModelRequest, type LoopEnd, type LoopEvent, type LoopHost, type ModelStreamCall } from './modelLoop';

// ---- a scripted provider ----

const USAGE: AssistantMessage['usage'] = { input: 12, output: 7, cacheRead: 0, cacheWrite: 0, totalTokens: 19, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

function assistant(content: AssistantMessage['content'], stopReason: StopReason, errorMessage?: string): AssistantMessage {
  return {
    role: 'assistant',
    content: structuredClone(content),
    api: 'openai-completions',
    provider: 'ollama',
    model: 'qwen3',
    usage: USAGE,
    stopReason,
    timestamp: 1,
    ...(errorMessage === undefined ? {} : { errorMessage }),
  };
}

/** One reply of the model, as the provider streams it. */
interface Reply {
  /** Reasoning deltas, in order, streamed before the text (as a reasoning model's server sends them). */
  readonly thinking?: readonly string[];
  /** Text deltas, in order. */
  readonly text?: readonly string[];
  /** Whole tool calls (toolcall_start, _delta, _end each). */
  readonly calls?: readonly ToolCall[];
  /** A tool call the stream started but never finished (no toolcall_end): it stays in the partial message. */
  readonly halfCall?: ToolCall;
  /** Whether the provider answered at all (`start`); a request that got no answer has no start. */
  readonly answered?: boolean;
  /**
   * How the reply ends: done (the default), a provider error, it waits for the learner's Stop, or it
   * reaches its token cap (`length`: pi-ai closes a half-written call with `toolcall_end` and what
   * parsed of its arguments, then reports `done` with stopReason "length").
   */
  readonly end?: { readonly kind: 'done' } | { readonly kind: 'error'; readonly message: string } | { readonly kind: 'wait-for-abort' } | { readonly kind: 'length' };
}

const toolCall = (id: string, args: Record<string, unknown>, name = 'seed_desk'): ToolCall => ({ type: 'toolCall', id, name, arguments: args });

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
}

/** pi-ai's event protocol for one reply: start, blocks, then `done` or `error` carrying the final message. */
function replyStream(reply: Reply, signal: AbortSignal): ModelStreamCall {
  const content: AssistantMessage['content'] = [];
  let settle!: (message: AssistantMessage) => void;
  const final = new Promise<AssistantMessage>((resolve) => (settle = resolve));
  async function* events(): AsyncGenerator<AssistantMessageEvent> {
    const partial = () => assistant(content, 'stop');
    if (reply.answered !== false) {
      yield { type: 'start', partial: partial() };
      if (reply.thinking) {
        const block = { type: 'thinking' as const, thinking: '' };
        content.push(block);
        const contentIndex = content.length - 1;
        yield { type: 'thinking_start', contentIndex, partial: partial() };
        for (const delta of reply.thinking) {
          block.thinking += delta;
          yield { type: 'thinking_delta', contentIndex, delta, partial: partial() };
        }
        yield { type: 'thinking_end', contentIndex, content: block.thinking, partial: partial() };
      }
      if (reply.text) {
        const block = { type: 'text' as const, text: '' };
        content.push(block);
        const contentIndex = content.length - 1;
        yield { type: 'text_start', contentIndex, partial: partial() };
        for (const delta of reply.text) {
          block.text += delta;
          yield { type: 'text_delta', contentIndex, delta, partial: partial() };
        }
        yield { type: 'text_end', contentIndex, content: block.text, partial: partial() };
      }
      for (const call of reply.calls ?? []) {
        content.push(call);
        const contentIndex = content.length - 1;
        yield { type: 'toolcall_start', contentIndex, partial: partial() };
        yield { type: 'toolcall_delta', contentIndex, delta: JSON.stringify(call.arguments), partial: partial() };
        yield { type: 'toolcall_end', contentIndex, toolCall: call, partial: partial() };
      }
      if (reply.halfCall) {
        content.push(reply.halfCall);
        const contentIndex = content.length - 1;
        yield { type: 'toolcall_start', contentIndex, partial: partial() };
        yield { type: 'toolcall_delta', contentIndex, delta: '{"op":', partial: partial() };
      }
    }
    const end = reply.end ?? { kind: 'done' };
    if (end.kind === 'length') {
      if (reply.halfCall) yield { type: 'toolcall_end', contentIndex: content.length - 1, toolCall: reply.halfCall, partial: partial() };
      const message = assistant(content, 'length');
      settle(message);
      yield { type: 'done', reason: 'length', message };
      return;
    }
    if (end.kind === 'wait-for-abort') {
      await aborted(signal);
      const message = assistant(content, 'aborted', 'Request was aborted');
      settle(message);
      yield { type: 'error', reason: 'aborted', error: message };
      return;
    }
    if (end.kind === 'error') {
      const message = assistant(content, 'error', end.message);
      settle(message);
      yield { type: 'error', reason: 'error', error: message };
      return;
    }
    const message = assistant(content, content.some((part) => part.type === 'toolCall') ? 'toolUse' : 'stop');
    settle(message);
    yield { type: 'done', reason: message.stopReason as 'stop' | 'toolUse', message };
  }
  return { [Symbol.asyncIterator]: () => events(), result: () => final };
}

// ---- a scripted host ----

type Logged = { readonly kind: 'record'; readonly message: ModelMessage } | { readonly kind: 'call'; readonly ref: ModelCallRef; readonly args: string } | { readonly kind: 'stream'; readonly reply: number };

const TOOLS: ModelTool[] = [{ name: 'seed_desk', description: 'Reserve seed packets.', parameters: { type: 'object', properties: { op: { type: 'string' } }, required: ['op'] } }];

function okResult(ref: ModelCallRef, text: string, isError = false): ToolCallOutcome {
  return { kind: 'result', callId: ref.id, stage: 'domain', isError, text, details: { ok: !isError, scope: 'query', revision: 'S:e1' } };
}

interface Setup {
  readonly replies: readonly Reply[] | ((index: number) => Reply);
  readonly outcome?: (ref: ModelCallRef, args: string, index: number) => ToolCallOutcome;
  readonly record?: (message: ModelMessage, index: number) => ModelRecord;
  readonly limit?: number;
  /** Called with every loop event, with the request's abort controller (a test presses Stop from here). */
  readonly onEvent?: (event: LoopEvent, abort: AbortController) => void;
  readonly abortBefore?: boolean;
  /** The host's side of the run's start and end (the worker's agent events); left out, the loop has none. */
  readonly start?: LoopHost['start'];
  readonly end?: LoopHost['end'];
}

async function runScripted(setup: Setup) {
  const log: Logged[] = [];
  const contexts: Context[] = [];
  const events: LoopEvent[] = [];
  const explained: { message: string; streamStarted: boolean }[] = [];
  const abort = new AbortController();
  if (setup.abortBefore) abort.abort();
  let calls = 0;
  let records = 0;
  const end: LoopEnd = await runModelRequest({
    prompt: 'Reserve one bean-scarlet.',
    systemPrompt: 'You are a test.',
    tools: TOOLS,
    stream: (context, signal) => {
      // What the provider was sent, as it was at the time (the loop keeps adding to its context).
      contexts.push(structuredClone(context));
      log.push({ kind: 'stream', reply: contexts.length });
      const index = contexts.length - 1;
      const reply = typeof setup.replies === 'function' ? setup.replies(index) : setup.replies[index];
      if (!reply) throw new Error(`the script has no reply ${index}`);
      return replyStream(reply, signal);
    },
    host: {
      record: async (message) => {
        log.push({ kind: 'record', message });
        records += 1;
        return setup.record?.(message, records - 1) ?? { kind: 'recorded', entryId: `e${records}` };
      },
      call: async (ref, args) => {
        log.push({ kind: 'call', ref, args });
        calls += 1;
        return setup.outcome?.(ref, args, calls - 1) ?? okResult(ref, `Result of ${ref.id}; revision: S:e${calls}`);
      },
      ...(setup.start ? { start: setup.start } : {}),
      ...(setup.end ? { end: setup.end } : {}),
    },
    signal: abort.signal,
    limit: setup.limit ?? 8,
    onEvent: (event) => {
      events.push(event);
      setup.onEvent?.(event, abort);
    },
    explain: async (message, streamStarted): Promise<ModelProblem> => {
      explained.push({ message, streamStarted });
      return { kind: streamStarted ? 'stream-cut' : 'unauthorized', text: `explained: ${message}` };
    },
  });
  const recorded = log.flatMap((entry) => (entry.kind === 'record' ? [entry.message] : []));
  return { end, log, contexts, events, explained, recorded };
}

const hasToolCall = (message: ModelMessage) => message.role === 'assistant' && message.content.some((part) => part.type === 'toolCall');

// ---- the tests ----

describe('a careful model: query, act, then a final answer', () => {
  const careful: Reply[] = [
    { text: ['I will ', 'look first.'], calls: [toolCall('call_q', { op: 'query' })] },
    { calls: [toolCall('call_a', { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: 'S:e1' })] },
    { text: ['Reserved ', 'one ', 'packet.'] },
  ];

  it('records user, assistant (toolUse), assistant (toolUse), assistant (stop), in that order, each call run between', async () => {
    const { end, log, recorded } = await runScripted({ replies: careful });
    expect(end).toEqual({ kind: 'answered', calls: 2 });
    expect(log.map((entry) => (entry.kind === 'record' ? `record ${entry.message.role}` : entry.kind === 'call' ? `call ${entry.ref.id}` : `stream ${entry.reply}`))).toEqual([
      'stream 1',
      'record user',
      'record assistant',
      'call call_q',
      'stream 2',
      'record assistant',
      'call call_a',
      'stream 3',
      'record assistant',
    ]);
    expect(recorded[0]).toEqual({ role: 'user', text: 'Reserve one bean-scarlet.' });
    expect(recorded.filter((message) => message.role === 'user')).toHaveLength(1);
    expect(recorded[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'I will look first.' },
        { type: 'toolCall', id: 'call_q', name: 'seed_desk', arguments: { op: 'query' } },
      ],
      stopReason: 'toolUse',
      api: 'openai-completions',
      provider: 'ollama',
      model: 'qwen3',
      usage: { input: 12, output: 7 },
    });
    expect(recorded.map((message) => (message.role === 'assistant' ? message.stopReason : 'user'))).toEqual(['user', 'toolUse', 'toolUse', 'stop']);
    expect(recorded[3]).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'Reserved one packet.' }] });
    // The host got each call as the model sent it, under the model's id.
    const called = log.flatMap((entry) => (entry.kind === 'call' ? [entry] : []));
    expect(called.map((entry) => [entry.ref, JSON.parse(entry.args)])).toEqual([
      [{ id: 'call_q', name: 'seed_desk' }, { op: 'query' }],
      [{ id: 'call_a', name: 'seed_desk' }, { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: 'S:e1' }],
    ]);
  });

  it('records the request only once the model first answers, and sends the provider the system prompt, the request and the tools', async () => {
    const { log, contexts } = await runScripted({ replies: careful });
    // Nothing is recorded before the first reply is in.
    expect(log[0]).toEqual({ kind: 'stream', reply: 1 });
    expect(log[1]).toMatchObject({ kind: 'record', message: { role: 'user' } });
    expect(contexts[0]?.systemPrompt).toBe('You are a test.');
    expect(contexts[0]?.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Reserve one bean-scarlet.' }], timestamp: expect.any(Number) }]);
    expect(contexts[0]?.tools).toEqual([{ name: 'seed_desk', description: 'Reserve seed packets.', parameters: TOOLS[0]!.parameters }]);
  });

  it('the host’s start gives the prompt and system prompt sent (an extension’s before_agent_start), and its end is told once, after the last record', async () => {
    const order: string[] = [];
    const { contexts, recorded } = await runScripted({
      replies: careful,
      record: (_message, index) => (order.push('record'), { kind: 'recorded', entryId: `e${index}` }),
      start: async (prompt, systemPrompt) => ({ kind: 'started', prompt: `${prompt} Quickly.`, systemPrompt: `${systemPrompt}\n\nSpeak like a pirate.` }),
      end: async () => void order.push('end'),
    });
    expect(contexts[0]?.systemPrompt).toBe('You are a test.\n\nSpeak like a pirate.');
    expect(contexts.every((context) => context.systemPrompt === contexts[0]?.systemPrompt)).toBe(true);
    expect(recorded[0]).toEqual({ role: 'user', text: 'Reserve one bean-scarlet. Quickly.' });
    expect(order.filter((step) => step === 'end')).toEqual(['end']);
    expect(order.at(-1)).toBe('end');
  });

  it('a start the extension handled (input `handled: true`) asks no model and records nothing', async () => {
    const { end, log } = await runScripted({ replies: careful, start: async () => ({ kind: 'handled' }) });
    expect(end).toEqual({ kind: 'handled', calls: 0 });
    expect(log).toEqual([]);
  });

  it('the second turn sends a toolResult with the text and isError, and never the details', async () => {
    const { contexts, events } = await runScripted({
      replies: [{ calls: [toolCall('call_q', { op: 'query' }), toolCall('call_bad', { op: 'nope' })] }, { text: ['Done.'] }],
      outcome: (ref, _args, index) => (index === 0 ? okResult(ref, 'Seed desk: 5 bean-scarlet; revision: S:root') : okResult(ref, 'Validation failed for tool "seed_desk"', true)),
    });
    const second = contexts[1];
    expect(second?.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'toolResult', 'toolResult']);
    const results = second?.messages.filter((message) => message.role === 'toolResult') ?? [];
    expect(results).toEqual([
      { role: 'toolResult', toolCallId: 'call_q', toolName: 'seed_desk', content: [{ type: 'text', text: 'Seed desk: 5 bean-scarlet; revision: S:root' }], isError: false, timestamp: expect.any(Number) },
      { role: 'toolResult', toolCallId: 'call_bad', toolName: 'seed_desk', content: [{ type: 'text', text: 'Validation failed for tool "seed_desk"' }], isError: true, timestamp: expect.any(Number) },
    ]);
    for (const result of results) expect(Object.keys(result)).not.toContain('details');
    // The assistant message the model sent is sent back as it came, tool calls included.
    expect(second?.messages[1]).toMatchObject({ role: 'assistant', stopReason: 'toolUse', content: [{ type: 'toolCall', id: 'call_q' }, { type: 'toolCall', id: 'call_bad' }] });
    // The page's `result` event says what the model saw: the same message.
    const shown = events.flatMap((event) => (event.type === 'result' ? [event.modelSaw] : []));
    expect(shown).toEqual(results);
  });

  it('text deltas arrive as text events, in order, under the reply they belong to', async () => {
    const { events } = await runScripted({ replies: careful });
    expect(events.filter((event) => event.type === 'reply' || event.type === 'text')).toEqual([
      { type: 'reply', reply: 1 },
      { type: 'text', reply: 1, delta: 'I will ' },
      { type: 'text', reply: 1, delta: 'look first.' },
      { type: 'reply', reply: 2 },
      { type: 'reply', reply: 3 },
      { type: 'text', reply: 3, delta: 'Reserved ' },
      { type: 'text', reply: 3, delta: 'one ' },
      { type: 'text', reply: 3, delta: 'packet.' },
    ]);
    const calls = events.flatMap((event) => (event.type === 'call' ? [[event.reply, event.id, event.name, event.args]] : []));
    expect(calls).toEqual([
      [1, 'call_q', 'seed_desk', { op: 'query' }],
      [2, 'call_a', 'seed_desk', { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: 'S:e1' }],
    ]);
  });
});

describe('the call limit', () => {
  it('ends a model that never stops after exactly `limit` calls, each recorded call with its result', async () => {
    const limit = 3;
    const { end, log, recorded, contexts } = await runScripted({ limit, replies: (index) => ({ calls: [toolCall(`call_${index}`, { op: 'query' })] }) });
    expect(end).toEqual({ kind: 'limit', calls: limit });
    expect(contexts).toHaveLength(limit);
    const recordedCalls = recorded.flatMap((message) => (message.role === 'assistant' ? message.content.flatMap((part) => (part.type === 'toolCall' ? [part.id] : [])) : []));
    const ran = log.flatMap((entry) => (entry.kind === 'call' ? [entry.ref.id] : []));
    expect(recordedCalls).toEqual(['call_0', 'call_1', 'call_2']);
    expect(ran).toEqual(recordedCalls);
    // The loop ended on a result, not on a call waiting for one.
    expect(log.at(-1)).toEqual({ kind: 'call', ref: { id: 'call_2', name: 'seed_desk' }, args: '{"op":"query"}' });
  });

  it('a model that stops by itself before the limit ends answered', async () => {
    const { end } = await runScripted({ limit: 2, replies: [{ calls: [toolCall('call_0', { op: 'query' })] }, { text: ['Done.'] }] });
    expect(end).toEqual({ kind: 'answered', calls: 1 });
  });
});

describe('the learner stops the request', () => {
  it('during the stream: the partial text is recorded without tool calls (aborted), and the request ends stopped', async () => {
    const { end, recorded, log } = await runScripted({
      replies: [{ text: ['Let me ', 'check'], halfCall: toolCall('call_half', { op: 'query' }), end: { kind: 'wait-for-abort' } }],
      onEvent: (event, abort) => {
        if (event.type === 'text' && event.delta === 'check') abort.abort();
      },
    });
    expect(end).toEqual({ kind: 'stopped', calls: 0, recorded: true });
    expect(recorded).toEqual([
      { role: 'user', text: 'Reserve one bean-scarlet.' },
      {
        role: 'assistant',
        content: [{ type: 'text', text: 'Let me check' }],
        stopReason: 'aborted',
        api: 'openai-completions',
        provider: 'ollama',
        model: 'qwen3',
        usage: { input: 12, output: 7 },
        errorMessage: 'Request was aborted',
      },
    ]);
    expect(recorded.some(hasToolCall)).toBe(false);
    expect(log.some((entry) => entry.kind === 'call')).toBe(false);
  });

  it('a call pi-ai closed before it reported the abort is shown as never run, and the host never gets it', async () => {
    const events: LoopEvent[] = [];
    const { end, recorded, log } = await runScripted({
      // pi-ai ends every open block (toolcall_end) when the SDK's stream stops on an abort, then reports "aborted".
      replies: [{ text: ['Reserving'], calls: [toolCall('call_closed', { op: 'act', action: 'res' })], end: { kind: 'wait-for-abort' } }],
      onEvent: (event, abort) => {
        events.push(event);
        if (event.type === 'call') abort.abort();
      },
    });
    expect(end).toEqual({ kind: 'stopped', calls: 0, recorded: true });
    expect(events.at(-1)).toEqual({ type: 'unrun', reply: 1, ids: ['call_closed'], why: 'aborted' });
    expect(recorded.some(hasToolCall)).toBe(false);
    expect(log.some((entry) => entry.kind === 'call')).toBe(false);
  });

  it('after a finished reply with calls, while the calls run: the calls get their results and the request ends stopped', async () => {
    const { end, log, contexts } = await runScripted({
      replies: [{ calls: [toolCall('call_q', { op: 'query' })] }, { text: ['never asked'] }],
      onEvent: (event, abort) => {
        if (event.type === 'call') abort.abort();
      },
    });
    expect(end).toEqual({ kind: 'stopped', calls: 1, recorded: true });
    expect(log.filter((entry) => entry.kind === 'call')).toHaveLength(1);
    expect(contexts).toHaveLength(1);
  });

  it('before the model answered: nothing is recorded', async () => {
    const { end, recorded, contexts } = await runScripted({
      replies: [{ answered: false, end: { kind: 'wait-for-abort' } }],
      onEvent: (event, abort) => {
        if (event.type === 'reply') abort.abort();
      },
    });
    expect(contexts).toHaveLength(1);
    expect(end).toEqual({ kind: 'stopped', calls: 0, recorded: false });
    expect(recorded).toEqual([]);
  });

  it('before the request started: no provider call, nothing recorded', async () => {
    const { end, recorded, contexts } = await runScripted({ replies: [], abortBefore: true });
    expect(end).toEqual({ kind: 'stopped', calls: 0, recorded: false });
    expect(contexts).toEqual([]);
    expect(recorded).toEqual([]);
  });
});

describe('provider errors', () => {
  it('after the stream started: explained with streamStarted true, the partial message recorded without toolCall blocks', async () => {
    const { end, recorded, explained } = await runScripted({
      replies: [{ calls: [toolCall('call_q', { op: 'query' })] }, { text: ['Half an ans'], halfCall: toolCall('call_cut', { op: 'query' }), end: { kind: 'error', message: 'terminated' } }],
    });
    expect(explained).toEqual([{ message: 'terminated', streamStarted: true }]);
    expect(end).toEqual({ kind: 'provider', calls: 1, problem: { kind: 'stream-cut', text: 'explained: terminated' }, recorded: true });
    expect(recorded.map((message) => message.role)).toEqual(['user', 'assistant', 'assistant']);
    expect(recorded[2]).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'Half an ans' }],
      stopReason: 'error',
      api: 'openai-completions',
      provider: 'ollama',
      model: 'qwen3',
      usage: { input: 12, output: 7 },
      errorMessage: 'terminated',
    });
  });

  it('on the first reply after the stream started: the request is recorded with it, once', async () => {
    const { end, recorded } = await runScripted({ replies: [{ text: ['Hel'], end: { kind: 'error', message: 'terminated' } }] });
    expect(end).toMatchObject({ kind: 'provider', recorded: true });
    expect(recorded.map((message) => (message.role === 'assistant' ? `assistant ${message.stopReason}` : message.role))).toEqual(['user', 'assistant error']);
  });

  it('before any answer: explained with streamStarted false, nothing recorded', async () => {
    const { end, recorded, explained } = await runScripted({ replies: [{ answered: false, end: { kind: 'error', message: '401 Incorrect API key provided' } }] });
    expect(explained).toEqual([{ message: '401 Incorrect API key provided', streamStarted: false }]);
    expect(end).toEqual({ kind: 'provider', calls: 0, problem: { kind: 'unauthorized', text: 'explained: 401 Incorrect API key provided' }, recorded: false });
    expect(recorded).toEqual([]);
  });
});

describe('the host fails', () => {
  it('a failed record ends the loop with kind host and its text; nothing is run after it', async () => {
    const { end, log } = await runScripted({
      replies: [{ calls: [toolCall('call_q', { op: 'query' })] }],
      record: (message) => (message.role === 'assistant' ? { kind: 'failed', text: 'The journal could not be written.' } : { kind: 'recorded', entryId: 'e1' }),
    });
    expect(end).toEqual({ kind: 'host', calls: 0, text: 'The journal could not be written.' });
    expect(log.some((entry) => entry.kind === 'call')).toBe(false);
  });

  it('a failed user record ends the loop before the assistant message is recorded', async () => {
    const { end, recorded } = await runScripted({ replies: [{ text: ['Hi.'] }], record: () => ({ kind: 'failed', text: 'A seed_desk call is waiting for host approval: approve or deny it first.' }) });
    expect(end).toEqual({ kind: 'host', calls: 0, text: 'A seed_desk call is waiting for host approval: approve or deny it first.' });
    expect(recorded.map((message) => message.role)).toEqual(['user']);
  });

  it('a tool outcome of kind failed ends the loop with kind host; the model is not asked again', async () => {
    const { end, contexts, events } = await runScripted({
      replies: [{ calls: [toolCall('call_q', { op: 'query' }), toolCall('call_b', { op: 'query' })] }, { text: ['never'] }],
      outcome: () => ({ kind: 'failed', text: 'The tool arguments are not valid JSON, so no call was made.' }),
    });
    expect(end).toEqual({ kind: 'host', calls: 1, text: 'The tool arguments are not valid JSON, so no call was made.' });
    expect(contexts).toHaveLength(1);
    expect(events.filter((event) => event.type === 'result')).toEqual([{ type: 'result', id: 'call_q', outcome: { kind: 'failed', text: 'The tool arguments are not valid JSON, so no call was made.' }, modelSaw: null }]);
  });
});

describe('a reasoning model: its thinking streams as it comes', () => {
  it('thinking deltas arrive as thinking events before the text, under their reply, and the recorded message keeps the thinking', async () => {
    const { end, events, recorded } = await runScripted({
      replies: [{ thinking: ['The user wants ', 'a query first.'], text: ['Looking.'], calls: [toolCall('call_q', { op: 'query' })] }, { thinking: ['Done.'], text: ['All set.'] }],
    });
    expect(end).toEqual({ kind: 'answered', calls: 1 });
    const streamed = events.flatMap((event) => (event.type === 'thinking' || event.type === 'text' ? [`${event.reply} ${event.type} ${event.delta}`] : []));
    expect(streamed).toEqual(['1 thinking The user wants ', '1 thinking a query first.', '1 text Looking.', '2 thinking Done.', '2 text All set.']);
    const first = recorded[1];
    expect(first?.role === 'assistant' ? first.content[0] : null).toEqual({ type: 'thinking', thinking: 'The user wants a query first.' });
  });
});

describe('a reply that reaches its token cap (stopReason "length")', () => {
  const half = toolCall('call_half', { op: 'act', action: 'res' });

  it('is its own ending; the half-written call is shown as not run, never reaches the host, and is not recorded', async () => {
    const { end, log, events, recorded } = await runScripted({ replies: [{ text: ['Reserving now'], halfCall: half, end: { kind: 'length' } }] });
    expect(end).toEqual({ kind: 'length', calls: 0, unrun: 1 });
    expect(log.some((entry) => entry.kind === 'call')).toBe(false);
    expect(events).toContainEqual({ type: 'unrun', reply: 1, ids: ['call_half'], why: 'length' });
    expect(recorded.map((message) => message.role)).toEqual(['user', 'assistant']);
    const cut = recorded[1];
    expect(cut?.role === 'assistant' ? cut.stopReason : null).toBe('length');
    expect(hasToolCall(cut!)).toBe(false);
    expect(JSON.stringify(cut)).toContain('Reserving now');
  });

  it('after calls that ran: they keep their results, the count says so, and the model is not asked again', async () => {
    const { end, log } = await runScripted({ replies: [{ calls: [toolCall('call_q', { op: 'query' })] }, { text: ['Too long'], end: { kind: 'length' } }] });
    expect(end).toEqual({ kind: 'length', calls: 1, unrun: 0 });
    expect(log.filter((entry) => entry.kind === 'stream')).toHaveLength(2);
    expect(log.filter((entry) => entry.kind === 'call').map((entry) => (entry.kind === 'call' ? entry.ref.id : ''))).toEqual(['call_q']);
  });
});
