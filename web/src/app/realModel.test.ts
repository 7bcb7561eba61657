/**
 * The Real model section's state over the page's real `Connection` with a scripted worker, and a
 * scripted provider in place of pi-ai's: a request records the turn in the worker and runs each
 * call through the page's one tool path (with the model's call id); the reply streams into the
 * view; the key stays out of every request to the worker, every text shown, and storage unless
 * the learner asks to remember it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AssistantMessage, AssistantMessageEvent } from '@mariozechner/pi-ai';
import { FakeWorkers, toolResult } from './fakeConnection.testkit';
import { MemoryStorage } from './pageGlobals.testkit';
import { modelSetup, REMEMBERED_MODEL_KEY } from './modelConfigured.svelte';
import { Playground } from './playground.svelte';
import { RealModel } from './realModel.svelte';

const KEY = 'sk-test-SECRET-key-123';

/** Each reply the scripted provider gives, in order: text, tool calls, or a failure. */
type Reply = { readonly text?: string; readonly calls?: readonly Record<string, unknown>[]; readonly fail?: string };
const provider = vi.hoisted(() => ({ replies: [] as Reply[], seen: [] as { apiKey: string | undefined; maxTokens: number | undefined; modelMaxTokens: number; messages: unknown[] }[] }));

vi.mock(import('../model/providers'), async (importOriginal) => {
  const real = await importOriginal();
  return {
    ...real,
    loadProvider: async () => (model, context, options) => {
      provider.seen.push({ apiKey: options.apiKey, maxTokens: options.maxTokens, modelMaxTokens: model.maxTokens, messages: structuredClone(context.messages) });
      const reply = provider.replies.shift() ?? { text: 'done' };
      return scriptedStream(model.api, model.provider, model.id, reply, () => options.onResponse?.({ status: 200, headers: {} }, model));
    },
  } as typeof real;
});

function scriptedStream(api: string, providerName: string, id: string, reply: Reply, answered: () => unknown) {
  const message: AssistantMessage = {
    role: 'assistant',
    content: [],
    api,
    provider: providerName,
    model: id,
    usage: { input: 3, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 8, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    stopReason: 'stop',
    timestamp: 0,
  };
  const events: AssistantMessageEvent[] = [];
  if (reply.fail !== undefined) {
    message.stopReason = 'error';
    message.errorMessage = reply.fail;
    events.push({ type: 'error', reason: 'error', error: message });
  } else {
    answered();
    events.push({ type: 'start', partial: message });
    if (reply.text) {
      message.content.push({ type: 'text', text: reply.text });
      for (const piece of reply.text.match(/.{1,4}/g) ?? []) events.push({ type: 'text_delta', contentIndex: 0, delta: piece, partial: message });
    }
    for (const [index, args] of (reply.calls ?? []).entries()) {
      const toolCall = { type: 'toolCall' as const, id: `call_m${index}`, name: 'seed_desk', arguments: args };
      message.content.push(toolCall);
      events.push({ type: 'toolcall_end', contentIndex: message.content.length - 1, toolCall, partial: message });
    }
    if (reply.calls?.length) message.stopReason = 'toolUse';
    events.push({ type: 'done', reason: message.stopReason as 'stop' | 'toolUse', message });
  }
  return {
    async *[Symbol.asyncIterator]() {
      yield* events;
    },
    result: async () => message,
  };
}

let storage: MemoryStorage;

beforeEach(() => {
  storage = new MemoryStorage();
  vi.stubGlobal('localStorage', storage);
  vi.stubGlobal('sessionStorage', new MemoryStorage());
  vi.stubGlobal('location', { origin: 'http://127.0.0.1:5173' });
  provider.replies = [];
  provider.seen = [];
  modelSetup.configured = false;
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function setup() {
  const workers = new FakeWorkers();
  workers.answerWith('hello', { result: null });
  workers.answerWith('modelTools', { result: [{ name: 'seed_desk', description: 'The seed desk.', parameters: { type: 'object' } }] });
  let entry = 0;
  workers.answerWith('modelMessage', () => ({ result: { kind: 'recorded', entryId: `e${++entry}` } }));
  workers.answerWith('toolCall', (body) =>
    body.args.includes('"query"')
      ? { result: toolResult('bean-scarlet: 5 available\nrevision: s:r1', { ok: true, scope: 'query', revision: 's:r1', agentEnabled: true }, body.call?.id) }
      : { result: toolResult('Reserved 1 bean-scarlet.\nrevision: s:r2', { ok: true, scope: 'act', revision: 's:r2', agentEnabled: true }, body.call?.id) },
  );
  const playground = new Playground(workers.makeWorker);
  const model = new RealModel(playground);
  model.model = 'qwen3';
  return { workers, model };
}

describe('a request to a real model', () => {
  it('records the turn in the worker, runs each call under the model\'s id, and shows what the model saw beside what the host has', async () => {
    const { workers, model } = setup();
    provider.replies = [{ text: 'Looking.', calls: [{ op: 'query' }] }, { calls: [{ op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: 's:r1' }] }, { text: 'Reserved.' }];
    await model.ask();

    expect(model.ending).toEqual({ kind: 'answered', text: expect.stringContaining('after 2 tool calls') });
    const recorded = workers.sentOf('modelMessage').map((body) => (body.message.role === 'user' ? 'user' : `assistant:${body.message.stopReason}`));
    expect(recorded).toEqual(['user', 'assistant:toolUse', 'assistant:toolUse', 'assistant:stop']);
    expect(workers.sentOf('toolCall').map((body) => body.call)).toEqual([
      { id: 'call_m0', name: 'seed_desk' },
      { id: 'call_m0', name: 'seed_desk' },
    ]);
    expect(model.replies.map((reply) => reply.text)).toEqual(['Looking.', '', 'Reserved.']);
    const call = model.replies[0]!.calls[0]!;
    expect(call.modelSaw).toEqual({ text: 'bean-scarlet: 5 available\nrevision: s:r1', isError: false, api: 'openai-completions' });
    expect(call.hostHas?.details).toMatchObject({ ok: true, scope: 'query', agentEnabled: true });
    // The second reply was asked with the first call's text, and no details.
    const toolMessage = (provider.seen[1]?.messages as { role: string; content: unknown; details?: unknown }[]).find((message) => message.role === 'toolResult');
    expect(toolMessage).toMatchObject({ content: [{ type: 'text', text: 'bean-scarlet: 5 available\nrevision: s:r1' }] });
    expect(toolMessage).not.toHaveProperty('details');
    expect(modelSetup.configured).toBe(true);
  });

  it('sends the key to the provider only: no request to the worker carries it, and a provider error that echoes it is shown and recorded without it', async () => {
    const { workers, model } = setup();
    model.choosePreset('openai');
    model.apiKey = KEY;
    model.model = 'gpt-x';
    provider.replies = [{ text: 'Looking.', calls: [{ op: 'query' }] }, { fail: `500 upstream rejected ${KEY}` }];
    await model.ask();

    expect(provider.seen.map((seen) => seen.apiKey)).toEqual([KEY, KEY]);
    expect(JSON.stringify(workers.sent())).not.toContain(KEY);
    expect(model.ending?.kind).toBe('provider');
    expect(model.ending?.text).not.toContain(KEY);
    expect(storage.length).toBe(0);
  });

  it('forgets the key when the provider changes: a key typed for one provider is never sent to another', async () => {
    const { model } = setup();
    model.choosePreset('openai');
    model.apiKey = KEY;
    model.choosePreset('openai');
    expect(model.apiKey).toBe(KEY);
    model.choosePreset('anthropic');
    expect(model.apiKey).toBe('');
    expect(model.baseUrl).toBe('https://api.anthropic.com');
    await model.ask();
    expect(model.ending?.text).toContain('needs an API key');
    expect(provider.seen).toEqual([]);
  });

  it('empties the key when the Base URL moves to another origin (the key belongs to the address it was typed for), and keeps it on the same origin', async () => {
    const { model } = setup();
    model.choosePreset('openai');
    model.apiKey = KEY;
    model.baseUrl = 'https://api.openai.com/v1/';
    expect(model.apiKey).toBe(KEY);
    expect(model.keyNotice).toBeNull();
    // The first keystroke of a new address already leaves the origin the key was typed for.
    model.baseUrl = 'https://api.openai.co';
    expect(model.apiKey).toBe('');
    expect(model.keyNotice).toBe('The API key field was emptied: it was typed for https://api.openai.com, and the Base URL now points elsewhere, so paste the key for this address.');
    model.baseUrl = 'https://openrouter.ai/api/v1';
    model.model = 'openai/gpt-4o';
    await model.ask();
    expect(model.ending?.text).toContain('needs an API key');
    expect(provider.seen).toEqual([]);
  });

  it('passes "Reply token limit" to the provider as maxTokens on every request (4096 unless changed)', async () => {
    const { model } = setup();
    provider.replies = [{ calls: [{ op: 'query' }] }, { text: 'ok' }];
    await model.ask();
    expect(provider.seen.map((seen) => [seen.maxTokens, seen.modelMaxTokens])).toEqual([
      [4096, 4096],
      [4096, 4096],
    ]);
    model.replyTokens = 1024;
    provider.seen = [];
    await model.ask();
    expect(provider.seen.map((seen) => seen.maxTokens)).toEqual([1024]);
  });

  it('"Test connection" fills the model from a local server\'s list, and leaves it to the learner on a hosted provider', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ data: [{ id: 'dall-e-3' }, { id: 'gpt-4o' }] }), { status: 200 }));
    const local = setup().model;
    local.model = '';
    await local.testConnection();
    expect(local.model).toBe('dall-e-3');
    expect(local.status?.text).toBe('Connected: 2 models at this address (dall-e-3, gpt-4o).');
    const hosted = setup().model;
    hosted.choosePreset('openai');
    hosted.model = '';
    hosted.apiKey = KEY;
    await hosted.testConnection();
    expect(hosted.model).toBe('');
    expect(hosted.models).toEqual(['dall-e-3', 'gpt-4o']);
    expect(hosted.status?.text).toContain('pick one in "Model"');
  });

  it('refuses an address the page may not reach before anything is sent', async () => {
    const { workers, model } = setup();
    model.choosePreset('compatible');
    model.baseUrl = 'https://models.example.com/v1';
    await model.ask();
    expect(model.ending?.text).toMatch(/localhost/);
    expect(provider.seen).toEqual([]);
    expect(workers.sentOf('modelMessage')).toEqual([]);
  });

  it('keeps the key in memory unless "Remember on this device" is checked; Forget removes it', () => {
    const { model } = setup();
    model.apiKey = KEY;
    expect(storage.getItem(REMEMBERED_MODEL_KEY)).toBeNull();
    model.setRemember(true);
    expect(JSON.parse(storage.getItem(REMEMBERED_MODEL_KEY) ?? '{}')).toMatchObject({ apiKey: KEY, model: 'qwen3' });
    const again = setup().model;
    expect(again.apiKey).toBe(KEY);
    expect(again.remembered).toBe(true);
    again.forget();
    expect(storage.getItem(REMEMBERED_MODEL_KEY)).toBeNull();
    expect(again.apiKey).toBe('');
  });
});
