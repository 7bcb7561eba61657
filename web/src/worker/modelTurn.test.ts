import 'fake-indexeddb/auto';
/**
 * A real model's turn recorded by the host (issue 30), over a real JournalStore on fake-indexeddb:
 * the page hands the host the learner's request and each assistant message, and runs each call the
 * model made under the model's own id. The journal must read as OMP's agent loop writes a turn, and
 * an export of it must import back to the same messages.
 */
import { describe, expect, it } from 'vitest';
import { seededIdSource } from '$domain/ids';
import { parseSessionJsonl } from '$domain/journal/importJsonl';
import { seedDeskJsonSchema } from '$domain/tool/jsonSchema';
import { SEED_DESK_TOOL_DESCRIPTION } from '$domain/tool/schema';
import { isConfirmAsked, type AssistantModelMessage, type HostView, type ModelMessage, type ToolCallOutcome } from '../protocol/messages';
import { freshDatabases } from './databases.testkit';
import type { PlaygroundHost } from './playgroundHost';

const databases = freshDatabases('model-turn-test');

type Json = Record<string, unknown>;
type Result = Extract<ToolCallOutcome, { kind: 'result' }>;

const REQUEST = 'Query the desk, then reserve one bean-scarlet.';

function asResult(outcome: ToolCallOutcome): Result {
  if (outcome.kind !== 'result') throw new Error(`expected a tool result, got ${JSON.stringify(outcome)}`);
  return outcome;
}

async function grant(host: PlaygroundHost): Promise<void> {
  const prepared = await host.runLine('/seeds agent on');
  if (!isConfirmAsked(prepared)) throw new Error(`expected a confirm, got ${JSON.stringify(prepared)}`);
  const outcome = await host.answerUi({ kind: 'confirm', id: prepared.request.id, confirmed: true });
  if (outcome.kind !== 'committed') throw new Error(`expected a commit, got ${JSON.stringify(outcome)}`);
}

/** The exported session's entries, header dropped, in append order. */
function exported(host: PlaygroundHost): Json[] {
  const lines = host.exportSession().jsonl.split('\n').filter((line) => line.length > 0);
  return lines.slice(1).map((line) => JSON.parse(line) as Json);
}

const messageOf = (entry: Json | undefined): Json => {
  if (!entry || entry['type'] !== 'message') throw new Error(`expected a message entry, got ${JSON.stringify(entry)}`);
  return entry['message'] as Json;
};

const row = (view: HostView, id: string) => {
  const found = view.rows.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no row ${id}`);
  return { reserved: found.reserved, available: found.available };
};

function assistantMessage(content: AssistantModelMessage['content'], stopReason: AssistantModelMessage['stopReason'], usage = { input: 321, output: 54 }): AssistantModelMessage {
  return { role: 'assistant', content, stopReason, api: 'openai-completions', provider: 'ollama', model: 'qwen3:8b', usage };
}

async function record(host: PlaygroundHost, message: ModelMessage): Promise<string> {
  const outcome = await host.recordModelMessage(message);
  if (outcome.kind !== 'recorded') throw new Error(`expected the message recorded, got ${JSON.stringify(outcome)}`);
  return outcome.entryId;
}

/** A model's whole turn: the request, an answer with text and two calls (query, act), both run, a final answer. */
async function modelTurn(host: PlaygroundHost) {
  const revision = host.view().revision;
  const act = { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: revision };
  const calls = [
    { type: 'toolCall' as const, id: 'call_model_query_1', name: 'seed_desk', arguments: { op: 'query' } },
    { type: 'toolCall' as const, id: 'call_model_act_2', name: 'seed_desk', arguments: act },
  ];
  const first = assistantMessage([{ type: 'text', text: 'I will look, then reserve.' }, ...calls], 'toolUse');
  const final = assistantMessage([{ type: 'text', text: 'Reserved one bean-scarlet.' }], 'stop', { input: 400, output: 9 });
  const ids = { user: await record(host, { role: 'user', text: REQUEST }), first: await record(host, first), results: [] as Result[], final: '' };
  for (const call of calls) ids.results.push(asResult(await host.callTool(JSON.stringify(call.arguments), false, { id: call.id, name: call.name })));
  ids.final = await record(host, final);
  return { ids, calls, first, final, act };
}

describe('a real model’s turn in the journal', () => {
  it('reads user, assistant with the calls, their toolResults under the model’s ids, the final assistant; nothing duplicated', async () => {
    const { host } = await databases.freshHost(31);
    await grant(host);
    const before = exported(host).length;
    const { ids, calls, first } = await modelTurn(host);

    const added = exported(host).slice(before);
    const messages = added.filter((entry) => entry['type'] === 'message').map(messageOf);
    expect(messages.map((message) => message['role'])).toEqual(['user', 'assistant', 'toolResult', 'toolResult', 'assistant']);

    // The request, as OMP records a user message.
    expect(added[0]).toMatchObject({ type: 'message', id: ids.user });
    expect(messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: REQUEST }], timestamp: expect.any(Number) });

    // The model's answer, once, with who answered and what it cost.
    expect(added[1]).toMatchObject({ type: 'message', id: ids.first, parentId: ids.user });
    expect(messages[1]).toEqual({
      role: 'assistant',
      content: first.content,
      api: 'openai-completions',
      provider: 'ollama',
      model: 'qwen3:8b',
      usage: { input: 321, output: 54, cacheRead: 0, cacheWrite: 0, totalTokens: 375, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
      stopReason: 'toolUse',
      timestamp: expect.any(Number),
    });
    const callBlocks = added.filter((entry) => entry['type'] === 'message' && messageOf(entry)['role'] === 'assistant').flatMap((entry) => (messageOf(entry)['content'] as Json[]).filter((block) => block['type'] === 'toolCall'));
    expect(callBlocks.map((block) => block['id'])).toEqual(['call_model_query_1', 'call_model_act_2']);

    // Each result under the model's id, in call order, the query's right under the assistant message.
    const results = messages.filter((message) => message['role'] === 'toolResult');
    expect(results.map((message) => [message['toolCallId'], message['toolName'], message['isError']])).toEqual([
      ['call_model_query_1', 'seed_desk', false],
      ['call_model_act_2', 'seed_desk', false],
    ]);
    expect(ids.results.map((result) => result.callId)).toEqual(calls.map((call) => call.id));
    expect(added[2]).toMatchObject({ parentId: ids.first, message: { role: 'toolResult', toolCallId: 'call_model_query_1' } });
    expect(results[1]).toMatchObject({ content: [{ type: 'text', text: ids.results[1]!.text }], details: { ok: true, scope: 'act' } });

    // The final answer closes the turn: it is the leaf, its parent the act's result.
    const finalEntry = added.at(-1);
    expect(finalEntry).toMatchObject({ id: ids.final, message: { role: 'assistant', stopReason: 'stop', content: [{ type: 'text', text: 'Reserved one bean-scarlet.' }], usage: { input: 400, output: 9, totalTokens: 409 } } });
    expect(finalEntry!['parentId']).toBe(added.at(-2)!['id']);
    expect(added.at(-2)).toMatchObject({ message: { role: 'toolResult', toolCallId: 'call_model_act_2' } });
    expect(host.view().leafId).toBe(ids.final);
  });

  it('an act made that way changes the desk: the seed desk entry sits between the act’s call and its result', async () => {
    const { host } = await databases.freshHost(32);
    await grant(host);
    expect(row(host.view(), 'bean-scarlet')).toEqual({ reserved: 0, available: 5 });
    const before = exported(host).length;
    const { ids } = await modelTurn(host);
    expect(ids.results[1]).toMatchObject({ stage: 'domain', isError: false, details: { ok: true, scope: 'act', data: { action: 'reserve', id: 'bean-scarlet', packets: 1 } } });
    expect(row(host.view(), 'bean-scarlet')).toEqual({ reserved: 1, available: 4 });

    const added = exported(host).slice(before);
    expect(added.map((entry) => (entry['type'] === 'message' ? messageOf(entry)['role'] : entry['customType']))).toEqual(['user', 'assistant', 'toolResult', 'seed-desk-state-v1', 'toolResult', 'assistant']);
    expect(added[3]).toMatchObject({ data: { quantities: { 'bean-scarlet': 1 } } });
    expect(host.view().revision).toBe(`${host.sessionId}:${String(added[3]!['id'])}`);
  });

  it('an assistant message keeps an error stop and its message, as the page hands them', async () => {
    const { host } = await databases.freshHost(33);
    await record(host, { role: 'user', text: REQUEST });
    await record(host, { ...assistantMessage([{ type: 'text', text: 'Half an ans' }], 'error'), errorMessage: 'terminated' });
    expect(messageOf(exported(host).at(-1))).toMatchObject({ role: 'assistant', stopReason: 'error', errorMessage: 'terminated', content: [{ type: 'text', text: 'Half an ans' }] });
  });
});

describe('the tools a model is offered', () => {
  it('is seed_desk with its description and the JSON Schema the extension registered', async () => {
    const { host } = await databases.freshHost(34);
    const tools = await host.modelTools();
    expect(tools).toEqual([{ name: 'seed_desk', description: SEED_DESK_TOOL_DESCRIPTION, parameters: JSON.parse(JSON.stringify(seedDeskJsonSchema)) }]);
    // Plain JSON: it crosses to the page and on to the provider as it is.
    expect(JSON.parse(JSON.stringify(tools))).toEqual(tools);
  });
});

describe('a model’s turn exported and imported', () => {
  it('the export parses back to the same messages, and imported into another browser exports the same file', async () => {
    const { host } = await databases.freshHost(35);
    await grant(host);
    await modelTurn(host);
    const { jsonl } = host.exportSession();
    const original = exported(host);

    const parsed = parseSessionJsonl(jsonl, seededIdSource(1));
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(parsed.skipped).toEqual([]);
    expect(parsed.entries).toEqual(original);
    const messagesOf = (entries: readonly Json[]) => entries.filter((entry) => entry['type'] === 'message').map(messageOf);
    expect(messagesOf(parsed.entries as unknown as Json[]).slice(-5).map((message) => message['role'])).toEqual(['user', 'assistant', 'toolResult', 'toolResult', 'assistant']);

    const other = (await databases.freshHost(36)).host;
    const report = await other.importSession(new Blob([jsonl]), () => undefined);
    expect(report).toMatchObject({ ok: true, entries: original.length });
    expect(other.sessionId).toBe(host.sessionId);
    expect(messagesOf(exported(other))).toEqual(messagesOf(original));
    expect(other.exportSession().jsonl).toBe(jsonl);
    expect(row(other.view(), 'bean-scarlet')).toEqual({ reserved: 1, available: 4 });
  });
});

describe('a model message while a call waits for approval', () => {
  it('is refused (failed) and appends nothing; once the prompt is answered it is recorded', async () => {
    const { host } = await databases.freshHost(37);
    host.setApprovalPolicy('prompt');
    await record(host, { role: 'user', text: REQUEST });
    await record(host, assistantMessage([{ type: 'toolCall', id: 'call_model_wait', name: 'seed_desk', arguments: { op: 'query' } }], 'toolUse'));
    const pending = await host.callTool(JSON.stringify({ op: 'query' }), false, { id: 'call_model_wait', name: 'seed_desk' });
    expect(pending).toMatchObject({ kind: 'approval', callId: 'call_model_wait' });
    expect(host.view().pendingApproval?.callId).toBe('call_model_wait');
    const count = exported(host).length;

    const final = assistantMessage([{ type: 'text', text: 'Done.' }], 'stop');
    const refused = await host.recordModelMessage(final);
    expect(refused).toEqual({ kind: 'failed', text: 'A seed_desk call is waiting for host approval: approve or deny it first.' });
    expect((await host.recordModelMessage({ role: 'user', text: 'another request' })).kind).toBe('failed');
    expect(exported(host)).toHaveLength(count);

    const answered = asResult(await host.answerApproval('call_model_wait', true));
    expect(answered).toMatchObject({ callId: 'call_model_wait', stage: 'domain', isError: false });
    const finalId = await record(host, final);
    const tail = exported(host).slice(-2);
    expect(tail.map((entry) => messageOf(entry)['role'])).toEqual(['toolResult', 'assistant']);
    expect(messageOf(tail[0])['toolCallId']).toBe('call_model_wait');
    expect(tail[1]!['id']).toBe(finalId);
  });
});
