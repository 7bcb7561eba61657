/**
 * Issue 35, point 4: the request body the page sends each preset's provider, judged by that
 * provider's own rules (`providers/`). The page's Real model state runs a request as the learner's
 * "Ask the model" does, through pi-ai's real provider code, with `fetch` replaced (nothing is
 * sent; every body is captured), and the tools the worker's host offers (the registered
 * `seed_desk`, its real schema). Each body must be accepted, and the model must be told every op
 * and every field `act` needs.
 */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { judgeRequest, seedDeskToldEnough, type ProviderKind } from '../../../providers';
import { FakeWorkers } from '../app/fakeConnection.testkit';
import { MemoryStorage } from '../app/pageGlobals.testkit';
import { Playground } from '../app/playground.svelte';
import { RealModel } from '../app/realModel.svelte';
import { freshDatabases } from '../worker/databases.testkit';
import { PRESET_IDS, type PresetId } from './presets';

const databases = freshDatabases('request-bodies-test');

/** Each preset's provider, and what the learner types for it. An OpenAI-compatible server of unknown make is judged by OpenAI's own rules. */
const CASES: Readonly<Record<PresetId, { kind: ProviderKind; model: string; apiKey?: string; baseUrl?: string; path: string }>> = {
  ollama: { kind: 'ollama-openai', model: 'qwen3', path: '/v1/chat/completions' },
  lmstudio: { kind: 'lmstudio', model: 'qwen/qwen3-8b', path: '/v1/chat/completions' },
  llamacpp: { kind: 'llamacpp', model: 'local', path: '/v1/chat/completions' },
  openai: { kind: 'openai-chat', model: 'gpt-4.1-mini', apiKey: 'sk-test-key', path: '/v1/chat/completions' },
  anthropic: { kind: 'anthropic', model: 'claude-sonnet-4-5', apiKey: 'sk-ant-test-key', path: '/v1/messages' },
  openrouter: { kind: 'openrouter', model: 'openai/gpt-4.1-mini', apiKey: 'sk-or-test-key', path: '/api/v1/chat/completions' },
  compatible: { kind: 'openai-chat', model: 'local', baseUrl: 'http://127.0.0.1:8000/v1', path: '/v1/chat/completions' },
};

interface Sent {
  readonly method: string;
  readonly url: string;
  readonly body: unknown;
}

let sent: Sent[] = [];

beforeEach(() => {
  sent = [];
  vi.stubGlobal('localStorage', new MemoryStorage());
  vi.stubGlobal('sessionStorage', new MemoryStorage());
  vi.stubGlobal('location', { origin: 'http://127.0.0.1:5173' });
  // Nothing leaves: each request is captured and answered 400, so the request ends at its first body.
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const text = typeof init?.body === 'string' ? init.body : input instanceof Request ? await input.text() : '';
    sent.push({ method: init?.method ?? (input instanceof Request ? input.method : 'GET'), url, body: text === '' ? undefined : (JSON.parse(text) as unknown) });
    return new Response(JSON.stringify({ error: { message: 'captured, not sent' } }), { status: 400, headers: { 'content-type': 'application/json' } });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The tools the worker's host offers a model: the registered extension's, as the page asks for them. */
async function offeredTools(seed: number) {
  const { host } = await databases.freshHost(seed);
  return host.modelTools();
}

describe('the body the page sends each preset is one its provider accepts, and tells the model enough', () => {
  it.each(PRESET_IDS.map((preset, index) => [preset, index] as const))('%s', async (preset, index) => {
    const tools = await offeredTools(100 + index);
    expect(tools.map((tool) => tool.name)).toEqual(['seed_desk']);
    const workers = new FakeWorkers();
    workers.answerWith('hello', { result: null });
    workers.answerWith('modelTools', { result: tools });
    workers.answerWith('modelMessage', () => ({ result: { kind: 'recorded', entryId: 'e1' } }));
    const model = new RealModel(new Playground(workers.makeWorker));
    const setup = CASES[preset];
    model.choosePreset(preset);
    if (setup.baseUrl !== undefined) model.baseUrl = setup.baseUrl;
    model.apiKey = setup.apiKey ?? '';
    model.model = setup.model;
    model.prompt = 'Reserve one packet of scarlet runner beans.';
    await model.ask();

    const posts = sent.filter((request) => request.method === 'POST');
    expect(posts).toHaveLength(1);
    const [post] = posts;
    expect(new URL(post!.url).pathname).toBe(setup.path);
    const judgement = judgeRequest(setup.kind, post!.body);
    expect(judgement.accepted ? 'accepted' : `refused ${judgement.status}: ${judgement.body}`).toBe('accepted');
    if (!judgement.accepted) return;
    expect(judgement.tools.map((tool) => tool.name)).toEqual(['seed_desk']);
    expect(judgement.tools.map(seedDeskToldEnough)).toEqual([[]]);
  });
});
