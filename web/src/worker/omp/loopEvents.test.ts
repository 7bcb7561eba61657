import 'fake-indexeddb/auto';
/**
 * The agent loop's notifications (omp/loopEvents.ts) and `session_shutdown`, against what OMP
 * 18.2.3's source does: pi-agent-core agent-loop.ts (the prompt's message in the first turn; a
 * call's `tool_execution_start` after `tool_call`, its `tool_execution_end` before the result's
 * `message_start`/`message_end`; a refused call gets both too), extensions/wrapper.ts (the approval
 * events around the host's prompt, "denied by user", "no interactive UI available") and
 * agent-session.ts `dispose` (`session_exit`, then `session_shutdown`). Inline extensions over a
 * PlaygroundHost on fake-indexeddb.
 */
import { describe, expect, it } from 'vitest';
import { seededIdSource } from '$domain/ids';
import type { ExtensionAPI, ExtensionContext } from '../../../../extension/ompApi';
import { freshDatabases } from '../databases.testkit';
import { PlaygroundHost } from '../playgroundHost';
import * as toolCalls from '../toolCalls';
import { endAgent, startAgent } from './agentRun';
import type { ExtensionFactory } from './extensionRuntime';

const databases = freshDatabases('loop-events-test');

type AnyOn = (event: string, handler: (event: Record<string, unknown>, ctx: ExtensionContext) => unknown) => void;
const onOf = (pi: ExtensionAPI): AnyOn => pi.on as unknown as AnyOn;

const EVENTS = ['agent_start', 'turn_start', 'turn_end', 'agent_end', 'message_start', 'message_end', 'tool_call', 'tool_result', 'tool_execution_start', 'tool_execution_end', 'tool_approval_requested', 'tool_approval_resolved', 'session_shutdown'];
const MOCK = { api: 'mock', provider: 'mock', model: 'mock-model', usage: { input: 3, output: 2 } } as const;

/** An extension with an `echo` tool (its approval tier `tier`) that records every event above. */
function recorder(tier: 'read' | 'exec' = 'read') {
  const seen: Record<string, unknown>[] = [];
  const extension: ExtensionFactory = (pi) => {
    pi.registerTool({
      name: 'echo',
      label: 'Echo',
      description: 'Says what it is given.',
      approval: tier,
      parameters: pi.typebox.Type.Unsafe({ type: 'object', properties: { word: { type: 'string' } }, required: ['word'], additionalProperties: false }),
      execute: async (_id, params) => ({ content: [{ type: 'text', text: `echo ${(params as { word: string }).word}` }], details: { word: (params as { word: string }).word } }),
    });
    for (const name of EVENTS) onOf(pi)(name, (event) => void seen.push(structuredClone(event)));
  };
  return { seen, extension };
}

async function hostWith(extension: ExtensionFactory, seed: number) {
  return PlaygroundHost.start(await databases.openStore(), seededIdSource(seed), { extension });
}

const summary = (seen: readonly Record<string, unknown>[]) =>
  seen.map((event) => {
    const message = event['message'] as { role?: string } | undefined;
    return message?.role && String(event['type']).startsWith('message_') ? `${String(event['type'])}:${message.role}` : String(event['type']);
  });

describe('a real model’s turn: each message and call told as OMP’s loop tells it', () => {
  it('the prompt in the first turn, the assistant message ended after tool_call, execution around execute, the result message before turn_end', async () => {
    const { seen, extension } = recorder();
    const host = await hostWith(extension, 1);
    await startAgent(host.core, 'Say one.', 'Be brief.', { provider: 'ollama', id: 'qwen3', api: 'openai-completions' });
    await host.recordModelMessage({ role: 'user', text: 'Say one.' });
    await host.recordModelMessage({ role: 'assistant', content: [{ type: 'toolCall', id: 'call_1', name: 'echo', arguments: { word: 'one' } }], stopReason: 'toolUse', ...MOCK });
    const outcome = await host.callTool('{"word":"one"}', false, { id: 'call_1', name: 'echo' });
    await host.recordModelMessage({ role: 'assistant', content: [{ type: 'text', text: 'Done.' }], stopReason: 'stop', ...MOCK });
    await endAgent(host.core);
    expect(outcome).toMatchObject({ kind: 'result', isError: false, text: 'echo one' });
    expect(summary(seen)).toEqual([
      'agent_start', 'turn_start', 'message_start:user', 'message_end:user',
      'message_start:assistant', 'tool_call', 'message_end:assistant',
      'tool_execution_start', 'tool_result', 'tool_execution_end', 'message_start:toolResult', 'message_end:toolResult', 'turn_end',
      'turn_start', 'message_start:assistant', 'message_end:assistant', 'turn_end', 'agent_end',
    ]);
    expect(seen[2]).toMatchObject({ type: 'message_start', message: { role: 'user', content: [{ type: 'text', text: 'Say one.' }] } });
    expect(seen[7]).toEqual({ type: 'tool_execution_start', toolCallId: 'call_1', toolName: 'echo', args: { word: 'one' } });
    expect(seen[9]).toEqual({ type: 'tool_execution_end', toolCallId: 'call_1', toolName: 'echo', result: { content: [{ type: 'text', text: 'echo one' }], details: { word: 'one' } }, isError: false });
    expect(seen[11]).toMatchObject({ type: 'message_end', message: { role: 'toolResult', toolCallId: 'call_1', toolName: 'echo', isError: false, details: { word: 'one' } } });
  });

  it('message_end carries a copy: a handler that changes it changes nothing the host keeps', async () => {
    const extension: ExtensionFactory = (pi) => {
      onOf(pi)('message_end', (event) => {
        (event['message'] as { content: unknown[] }).content.length = 0;
      });
    };
    const host = await hostWith(extension, 2);
    await host.recordModelMessage({ role: 'assistant', content: [{ type: 'text', text: 'Kept.' }], stopReason: 'stop', ...MOCK });
    expect(host.core.journal.get(host.core.journal.leafId!)).toMatchObject({ message: { content: [{ type: 'text', text: 'Kept.' }] } });
  });

  it('a call the argument check refuses: no tool_call, but start (with the arguments sent) and end, an error', async () => {
    const { seen, extension } = recorder();
    const host = await hostWith(extension, 3);
    const outcome = await toolCalls.callTool(host.core, '{"other":3}', false, 'echo');
    expect(outcome).toMatchObject({ kind: 'result', stage: 'schema', isError: true });
    expect(summary(seen)).toEqual(['message_start:assistant', 'message_end:assistant', 'tool_execution_start', 'tool_execution_end', 'message_start:toolResult', 'message_end:toolResult']);
    expect(seen[2]).toMatchObject({ type: 'tool_execution_start', toolName: 'echo', args: { other: 3 } });
    expect(seen[3]).toMatchObject({ type: 'tool_execution_end', isError: true, result: { details: { isError: true } } });
  });

  it('a call of a tool nobody registered: start and end, "Tool … not found"', async () => {
    const { seen, extension } = recorder();
    const host = await hostWith(extension, 4);
    await toolCalls.callTool(host.core, '{}', false, 'nothing');
    expect(seen.filter((event) => String(event['type']).startsWith('tool_execution'))).toEqual([
      { type: 'tool_execution_start', toolCallId: expect.any(String), toolName: 'nothing', args: {} },
      { type: 'tool_execution_end', toolCallId: expect.any(String), toolName: 'nothing', result: { content: [{ type: 'text', text: 'Tool nothing not found' }] }, isError: true },
    ]);
  });

  it('a scripted agent’s closing summary, which the page does not record, is told as its last message', async () => {
    const { seen, extension } = recorder();
    const host = await hostWith(extension, 5);
    await startAgent(host.core, 'Nothing to do.', '');
    await endAgent(host.core, 'All done.');
    expect(summary(seen)).toEqual(['agent_start', 'turn_start', 'message_start:user', 'message_end:user', 'message_start:assistant', 'message_end:assistant', 'turn_end', 'agent_end']);
    expect(seen[5]).toMatchObject({ message: { role: 'assistant', content: [{ type: 'text', text: 'All done.' }] } });
  });
});

describe('host approval: tool_approval_requested and tool_approval_resolved', () => {
  const approvalEvents = (seen: readonly Record<string, unknown>[]) => seen.filter((event) => String(event['type']).startsWith('tool_approval') || String(event['type']).startsWith('tool_execution'));

  it('asked, then denied: requested after the start, resolved "denied by user", then the end', async () => {
    const { seen, extension } = recorder('exec');
    const host = await hostWith(extension, 6);
    host.setApprovalMode('always-ask');
    const asked = await toolCalls.callTool(host.core, '{"word":"w"}', false, 'echo');
    expect(asked.kind).toBe('approval');
    const callId = (asked as { callId: string }).callId;
    expect(approvalEvents(seen)).toEqual([
      { type: 'tool_execution_start', toolCallId: callId, toolName: 'echo', args: { word: 'w' } },
      { type: 'tool_approval_requested', sessionId: host.sessionId, toolName: 'echo', toolCallId: callId, approvalMode: 'always-ask' },
    ]);
    await toolCalls.answerApproval(host.core, callId, false);
    expect(approvalEvents(seen).slice(2)).toEqual([
      { type: 'tool_approval_resolved', sessionId: host.sessionId, toolName: 'echo', toolCallId: callId, approved: false, reason: 'denied by user' },
      expect.objectContaining({ type: 'tool_execution_end', isError: true, result: expect.objectContaining({ content: [{ type: 'text', text: 'Tool call denied by user: echo' }] }) }),
    ]);
  });

  it('asked, then approved: resolved with no reason, then the tool runs', async () => {
    const { seen, extension } = recorder('exec');
    const host = await hostWith(extension, 7);
    host.setApprovalMode('always-ask');
    const asked = await toolCalls.callTool(host.core, '{"word":"yes"}', false, 'echo');
    const callId = (asked as { callId: string }).callId;
    await toolCalls.answerApproval(host.core, callId, true);
    expect(summary(seen).slice(-6)).toEqual(['tool_approval_requested', 'tool_approval_resolved', 'tool_result', 'tool_execution_end', 'message_start:toolResult', 'message_end:toolResult']);
    expect(seen.find((event) => event['type'] === 'tool_approval_resolved')).toEqual({ type: 'tool_approval_resolved', sessionId: host.sessionId, toolName: 'echo', toolCallId: callId, approved: true });
  });

  it('no UI to ask in: requested, then resolved "no interactive UI available", and the call fails closed', async () => {
    const { seen, extension } = recorder('exec');
    const host = await hostWith(extension, 8);
    host.setApprovalMode('always-ask');
    host.setInteractive(false);
    const outcome = await toolCalls.callTool(host.core, '{"word":"w"}', false, 'echo');
    expect(outcome).toMatchObject({ kind: 'result', isError: true });
    expect(summary(approvalEvents(seen))).toEqual(['tool_execution_start', 'tool_approval_requested', 'tool_approval_resolved', 'tool_execution_end']);
    expect(seen.find((event) => event['type'] === 'tool_approval_resolved')).toMatchObject({ approved: false, reason: 'no interactive UI available' });
  });

  it('a call that runs without a prompt tells neither', async () => {
    const { seen, extension } = recorder('read');
    const host = await hostWith(extension, 9);
    await toolCalls.callTool(host.core, '{"word":"w"}', false, 'echo');
    expect(seen.some((event) => String(event['type']).startsWith('tool_approval'))).toBe(false);
  });
});

describe('session_shutdown', () => {
  it('a reopen: after session_exit is recorded (as OMP’s dispose), before the extension hears session_start again', async () => {
    const order: string[] = [];
    const extension: ExtensionFactory = (pi) => {
      onOf(pi)('session_shutdown', (event, ctx) => {
        const leaf = ctx.sessionManager.getBranch().at(-1) as { customType?: string } | undefined;
        order.push(`${String(event['type'])} after ${leaf?.customType ?? 'nothing'}`);
      });
      onOf(pi)('session_start', () => void order.push('session_start'));
    };
    const host = await hostWith(extension, 10);
    await host.recordModelMessage({ role: 'assistant', content: [{ type: 'text', text: 'Hello.' }], stopReason: 'stop', ...MOCK });
    order.length = 0;
    await host.reopen();
    expect(order).toEqual(['session_shutdown after session_exit', 'session_start']);
  });

  it('New and Switch fire none, as in OMP 18.2.3', async () => {
    const { seen, extension } = recorder();
    const host = await hostWith(extension, 11);
    const first = host.sessionId;
    await host.newSession();
    await host.switchSession(first);
    expect(seen.filter((event) => event['type'] === 'session_shutdown')).toEqual([]);
  });

  it('a handler that throws is the extension’s error; the reopen goes on', async () => {
    const extension: ExtensionFactory = (pi) => {
      onOf(pi)('session_shutdown', () => {
        throw new Error('cleanup failed');
      });
    };
    const host = await hostWith(extension, 12);
    await host.reopen();
    const texts = host.events().flatMap((item) => (item.kind === 'notification' ? [item.text] : []));
    expect(texts).toContain('Extension "seed-desk.js" error: cleanup failed');
    expect(texts.some((text) => text.startsWith('Reopened'))).toBe(true);
  });
});

describe('tool_execution_update: the tool’s onUpdate during execute', () => {
  it('each partial result between start and end, with the arguments; one without a content array as OMP’s loop reads it', async () => {
    const seen: Record<string, unknown>[] = [];
    const extension: ExtensionFactory = (pi) => {
      pi.registerTool({
        name: 'grow',
        label: 'Grow',
        description: 'Grows in steps.',
        approval: 'read',
        parameters: pi.typebox.Type.Unsafe({ type: 'object', properties: { days: { type: 'number' } }, required: ['days'] }),
        execute: async (_id, params, _signal, onUpdate) => {
          const update = onUpdate as (partial: unknown) => void;
          update({ content: [{ type: 'text', text: 'sprouted' }], details: { day: 1 } });
          update({ note: 'no content' });
          return { content: [{ type: 'text', text: `grown in ${(params as { days: number }).days}` }], details: null };
        },
      });
      for (const name of ['tool_execution_start', 'tool_execution_update', 'tool_execution_end']) onOf(pi)(name, (event) => void seen.push(structuredClone(event)));
    };
    const host = await hostWith(extension, 20);
    const outcome = await toolCalls.callTool(host.core, '{"days":3}', false, 'grow');
    const callId = (outcome as { callId: string }).callId;
    expect(seen.map((event) => event['type'])).toEqual(['tool_execution_start', 'tool_execution_update', 'tool_execution_update', 'tool_execution_end']);
    expect(seen[1]).toEqual({ type: 'tool_execution_update', toolCallId: callId, toolName: 'grow', args: { days: 3 }, partialResult: { content: [{ type: 'text', text: 'sprouted' }], details: { day: 1 } } });
    expect(seen[2]).toMatchObject({ partialResult: { content: [{ type: 'text', text: 'Tool returned an invalid result: missing content array.' }], details: {}, isError: true } });
  });
});
