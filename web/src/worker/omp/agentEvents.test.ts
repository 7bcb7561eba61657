import 'fake-indexeddb/auto';
/**
 * The agent events of a run, against what OMP 18.2.3's source does (omp/agentRun.ts and
 * omp/eventEmit.ts cite the files): the order `input`, `before_agent_start`, `agent_start`,
 * `turn_start`, `tool_call`, `tool_result`, `turn_end`, …, `agent_end`; each event's fields;
 * a `tool_call` block recorded as the loop records a blocked call; a `tool_result` handler's
 * changes in the recorded result; a `before_agent_start` system prompt. Inline extensions over a
 * PlaygroundHost on fake-indexeddb.
 */
import { describe, expect, it } from 'vitest';
import { seededIdSource } from '$domain/ids';
import type { ExtensionAPI, ExtensionContext } from '../../../../extension/ompApi';
import { freshDatabases } from '../databases.testkit';
import { PlaygroundHost } from '../playgroundHost';
import * as toolCalls from '../toolCalls';
import * as modelTurn from '../modelTurn';
import { endAgent, startAgent } from './agentRun';
import type { ExtensionFactory } from './extensionRuntime';

const databases = freshDatabases('agent-events-test');

/** The extension's `on` for any event name (the declared API names only the session events the page fired before). */
type AnyOn = (event: string, handler: (event: Record<string, unknown>, ctx: ExtensionContext) => unknown) => void;
const onOf = (pi: ExtensionAPI): AnyOn => pi.on as unknown as AnyOn;

const AGENT_EVENTS = ['input', 'before_agent_start', 'agent_start', 'turn_start', 'tool_call', 'tool_result', 'turn_end', 'agent_end'];

/** An extension with an `echo` tool that records every agent event; `reply` answers some of them. */
function recorder(reply: Partial<Record<string, (event: Record<string, unknown>) => unknown>> = {}) {
  const seen: Record<string, unknown>[] = [];
  const extension: ExtensionFactory = (pi) => {
    pi.registerTool({
      name: 'echo',
      label: 'Echo',
      description: 'Says what it is given.',
      parameters: pi.typebox.Type.Unsafe({ type: 'object', properties: { word: { type: 'string' } }, required: ['word'], additionalProperties: false }),
      execute: async (_id, params) => ({ content: [{ type: 'text', text: `echo ${(params as { word: string }).word}` }], details: { word: (params as { word: string }).word } }),
    });
    for (const name of AGENT_EVENTS) {
      onOf(pi)(name, (event) => {
        seen.push(structuredClone(event));
        return reply[name]?.(event);
      });
    }
  };
  return { seen, extension };
}

async function hostWith(extension: ExtensionFactory, seed: number) {
  const store = await databases.openStore();
  return PlaygroundHost.start(store, seededIdSource(seed), { extension });
}

describe('a scripted agent’s run: the events in OMP’s order, with OMP’s objects', () => {
  it('two calls and a summary: input, before_agent_start, agent_start, then a turn per call, the last turn the summary’s, then agent_end', async () => {
    const { seen, extension } = recorder();
    const host = await hostWith(extension, 1);
    const started = await startAgent(host.core, 'Say two words.', 'You are careful.');
    expect(started).toEqual({ kind: 'started', prompt: 'Say two words.', systemPrompt: 'You are careful.' });
    const first = await toolCalls.callTool(host.core, '{"word":"one"}', false, 'echo');
    const second = await toolCalls.callTool(host.core, '{"word":"two"}', false, 'echo');
    await endAgent(host.core, 'I said two words.');
    expect(first).toMatchObject({ kind: 'result', text: 'echo one', isError: false });
    expect(second).toMatchObject({ kind: 'result', text: 'echo two' });
    expect(seen.map((event) => event.type)).toEqual(['input', 'before_agent_start', 'agent_start', 'turn_start', 'tool_call', 'tool_result', 'turn_end', 'turn_start', 'tool_call', 'tool_result', 'turn_end', 'turn_start', 'turn_end', 'agent_end']);
    expect(seen[0]).toEqual({ type: 'input', text: 'Say two words.', source: 'interactive' });
    expect(seen[1]).toEqual({ type: 'before_agent_start', prompt: 'Say two words.', systemPrompt: ['You are careful.'] });
    expect(seen[3]).toMatchObject({ type: 'turn_start', turnIndex: 0, timestamp: expect.any(Number) });
    const callId = (first as { callId: string }).callId;
    expect(seen[4]).toEqual({ type: 'tool_call', toolName: 'echo', toolCallId: callId, input: { word: 'one' } });
    expect(seen[5]).toEqual({ type: 'tool_result', toolName: 'echo', toolCallId: callId, input: { word: 'one' }, content: [{ type: 'text', text: 'echo one' }], details: { word: 'one' }, isError: false });
    expect(seen[6]).toMatchObject({ type: 'turn_end', turnIndex: 0, message: { role: 'assistant', content: [{ type: 'toolCall', id: callId, name: 'echo' }] }, toolResults: [{ role: 'toolResult', toolCallId: callId }] });
    expect(seen[7]).toMatchObject({ type: 'turn_start', turnIndex: 1 });
    expect(seen[12]).toMatchObject({ type: 'turn_end', turnIndex: 2, message: { role: 'assistant', content: [{ type: 'text', text: 'I said two words.' }] }, toolResults: [] });
    const end = seen[13] as { messages: { role: string }[] };
    expect(end.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'toolResult', 'assistant', 'toolResult', 'assistant']);
    expect(host.core.agent.run).toBeNull();
  });

  it('a call outside a run (the Tool call panel) fires tool_call and tool_result, and no turn events', async () => {
    const { seen, extension } = recorder();
    const host = await hostWith(extension, 2);
    await toolCalls.callTool(host.core, '{"word":"solo"}', false, 'echo');
    expect(seen.map((event) => event.type)).toEqual(['tool_call', 'tool_result']);
  });

  it('a call that fails the argument check reaches no extension (OMP validates before tool_call)', async () => {
    const { seen, extension } = recorder();
    const host = await hostWith(extension, 3);
    const outcome = await toolCalls.callTool(host.core, '{"other":3}', false, 'echo');
    expect(outcome).toMatchObject({ kind: 'result', stage: 'schema', isError: true });
    expect(seen).toEqual([]);
  });
});

describe('what the handlers answer', () => {
  it('tool_call `{ block: true, reason }`: the tool never runs; the result is the reason, an error with empty details', async () => {
    const { seen, extension } = recorder({ tool_call: () => ({ block: true, reason: 'Not today.' }) });
    const host = await hostWith(extension, 4);
    const outcome = await toolCalls.callTool(host.core, '{"word":"stop"}', false, 'echo');
    expect(outcome).toMatchObject({ kind: 'result', isError: true, text: 'Not today.' });
    expect(seen.map((event) => event.type)).toEqual(['tool_call']);
    const last = host.core.journal.get(host.core.journal.leafId!) as unknown as { message: { role: string; content: unknown; details: unknown; isError: boolean } };
    expect(last.message).toMatchObject({ role: 'toolResult', content: [{ type: 'text', text: 'Not today.' }], details: {}, isError: true });
  });

  it('tool_call `{ block: true }` without a reason: OMP’s own sentence', async () => {
    const { extension } = recorder({ tool_call: () => ({ block: true }) });
    const host = await hostWith(extension, 5);
    expect(await toolCalls.callTool(host.core, '{"word":"x"}', false, 'echo')).toMatchObject({ isError: true, text: 'Tool execution was blocked by an extension' });
  });

  it('a tool_call handler that throws blocks the call (fail-closed), and the error is shown', async () => {
    const { extension } = recorder({
      tool_call: () => {
        throw new Error('gate broke');
      },
    });
    const host = await hostWith(extension, 6);
    expect(await toolCalls.callTool(host.core, '{"word":"x"}', false, 'echo')).toMatchObject({ isError: true, text: 'Extension seed-desk.js failed: gate broke' });
    expect(host.events().some((item) => item.kind === 'notification' && item.text === 'Extension "seed-desk.js" error: gate broke')).toBe(true);
  });

  it('tool_call `{ input }`: the tool runs with the new arguments, checked against the schema again', async () => {
    const { extension } = recorder({ tool_call: () => ({ input: { word: 'changed' } }) });
    const host = await hostWith(extension, 7);
    expect(await toolCalls.callTool(host.core, '{"word":"x"}', false, 'echo')).toMatchObject({ isError: false, text: 'echo changed' });
    const { extension: bad } = recorder({ tool_call: () => ({ input: { other: 7 } }) });
    const other = await hostWith(bad, 8);
    expect(await toolCalls.callTool(other.core, '{"word":"x"}', false, 'echo')).toMatchObject({ stage: 'schema', isError: true });
  });

  it('tool_result: the returned content, details and isError replace the call’s in the journal', async () => {
    const { extension } = recorder({ tool_result: () => ({ content: [{ type: 'text', text: 'rewritten' }], isError: true }) });
    const host = await hostWith(extension, 9);
    const outcome = await toolCalls.callTool(host.core, '{"word":"x"}', false, 'echo');
    expect(outcome).toMatchObject({ kind: 'result', isError: true, text: 'rewritten' });
    const last = host.core.journal.get(host.core.journal.leafId!) as unknown as { message: { content: unknown; details: unknown; isError: boolean } };
    expect(last.message).toMatchObject({ content: [{ type: 'text', text: 'rewritten' }], details: { word: 'x' }, isError: true });
  });

  it('before_agent_start `systemPrompt` replaces the prompt; `systemPromptAppend` is not read (OMP 18.2.3 declares no such field)', async () => {
    const { extension } = recorder({ before_agent_start: (event) => ({ systemPrompt: [...(event.systemPrompt as string[]), 'Speak briefly.'] }) });
    const host = await hostWith(extension, 10);
    expect(await startAgent(host.core, 'Hi', 'Base.')).toEqual({ kind: 'started', prompt: 'Hi', systemPrompt: 'Base.\n\nSpeak briefly.' });
    const { extension: append } = recorder({ before_agent_start: () => ({ systemPromptAppend: 'Arrr.' }) });
    const other = await hostWith(append, 11);
    expect(await startAgent(other.core, 'Hi', 'Base.')).toEqual({ kind: 'started', prompt: 'Hi', systemPrompt: 'Base.' });
  });

  it('input: a returned text replaces the prompt; `handled: true` starts no run', async () => {
    const { seen, extension } = recorder({ input: (event) => (event.text === 'skip' ? { handled: true } : { text: `${String(event.text)}!` }) });
    const host = await hostWith(extension, 12);
    expect(await startAgent(host.core, 'skip', 'Base.')).toEqual({ kind: 'handled' });
    expect(host.core.agent.run).toBeNull();
    expect(seen.map((event) => event.type)).toEqual(['input']);
    expect(await startAgent(host.core, 'go', 'Base.')).toMatchObject({ kind: 'started', prompt: 'go!' });
  });
});

describe('a real model’s turn: messages recorded by the page drive the turns', () => {
  it('an answer with a call, its result, then a final answer: two turns, each closed when its last message is in', async () => {
    const { seen, extension } = recorder();
    const host = await hostWith(extension, 13);
    await startAgent(host.core, 'Echo hi.', 'Base.');
    await modelTurn.recordModelMessage(host.core, { role: 'user', text: 'Echo hi.' });
    const usage = { input: 1, output: 1 };
    const meta = { api: 'openai-completions', provider: 'test', model: 'm', usage } as const;
    await modelTurn.recordModelMessage(host.core, { role: 'assistant', content: [{ type: 'toolCall', id: 'call_1', name: 'echo', arguments: { word: 'hi' } }], stopReason: 'toolUse', ...meta });
    await toolCalls.callTool(host.core, '{"word":"hi"}', false, { id: 'call_1', name: 'echo' });
    expect(seen.map((event) => event.type).slice(-3)).toEqual(['tool_result', 'turn_end', 'turn_start']);
    await modelTurn.recordModelMessage(host.core, { role: 'assistant', content: [{ type: 'text', text: 'Done.' }], stopReason: 'stop', ...meta });
    expect(seen.at(-1)).toMatchObject({ type: 'turn_end', turnIndex: 1, message: { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] }, toolResults: [] });
    await endAgent(host.core);
    expect(seen.map((event) => event.type).slice(-2)).toEqual(['turn_end', 'agent_end']);
  });
});
