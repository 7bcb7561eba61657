/**
 * Runs under Bun only. What the real OMP 18.2.3 sends each provider for a turn with the seed desk
 * loaded (issue 35, point 3): a real AgentSession with a model of OMP's own catalog (hosted
 * providers), of models.yml (OpenAI chat completions: OMP's catalog has OpenAI on the Responses API
 * only), or of OMP's own discovery of a local server (Ollama, LM Studio, llama.cpp), and
 * `session.prompt` run with the global `fetch` replaced: every request the provider layer makes is
 * captured (nothing leaves the machine) and answered as the provider's rules say (`judge`).
 *
 * Discovery runs through the registry's own `fetch` option (OMP's DiscoveryContext: "tests stub
 * this"), answered with the model lists each server publishes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ProviderKind } from '../providers/index';
import { loadHost } from './ompLoad';
import type { Harness } from './ompTypes';

const OMP_DIR = fileURLToPath(new URL('./.omp', import.meta.url));

export interface ProviderCase {
  readonly label: string;
  /** Whose rules judge the body (providers/index.ts). */
  readonly kind: ProviderKind;
  /** OMP's provider id and model id, as its registry lists them. */
  readonly provider: string;
  readonly model: string;
  /** Where the model came from, for the printed line. */
  readonly source: 'catalog' | 'models.yml' | 'discovered';
}

/**
 * One model per provider. OpenRouter: an OpenAI model (OMP sends OpenRouter through the Responses
 * API unless PI_OPENROUTER_RESPONSES=0, pi-ai `stream.ts`), judged by OpenRouter's rules. Local
 * servers: the ids the stub servers below list, as OMP discovers them (Ollama and llama.cpp on
 * `openai-responses`, LM Studio on `openai-completions`: model-registry.ts
 * `#addImplicitDiscoverableProviders`).
 */
export const PROVIDER_CASES: readonly ProviderCase[] = [
  { label: 'OpenAI chat completions', kind: 'openai-chat', provider: 'openai-chat', model: 'gpt-4.1-mini', source: 'models.yml' },
  { label: 'OpenAI Responses', kind: 'openai-responses', provider: 'openai', model: 'gpt-4.1-mini', source: 'catalog' },
  { label: 'OpenRouter', kind: 'openrouter', provider: 'openrouter', model: 'openai/gpt-4.1-mini', source: 'catalog' },
  { label: 'Anthropic', kind: 'anthropic', provider: 'anthropic', model: 'claude-haiku-4-5', source: 'catalog' },
  { label: 'Google', kind: 'google', provider: 'google', model: 'gemini-2.5-flash', source: 'catalog' },
  { label: 'Ollama', kind: 'ollama-openai', provider: 'ollama', model: 'qwen3:8b', source: 'discovered' },
  { label: 'LM Studio', kind: 'lmstudio', provider: 'lm-studio', model: 'qwen/qwen3-8b', source: 'discovered' },
  { label: 'llama.cpp', kind: 'llamacpp', provider: 'llama.cpp', model: 'qwen3-8b', source: 'discovered' },
];

/** OpenAI chat completions as a user configures it: a provider of their own in models.yml. */
const MODELS_YML = `providers:
  openai-chat:
    baseUrl: https://api.openai.com/v1
    api: openai-completions
    apiKey: sk-test-never-sent
    models:
      - id: gpt-4.1-mini
        name: GPT-4.1 mini (chat completions)
`;

/** What each local server answers OMP's discovery probes with (the shapes of their own docs). */
function discoveryAnswer(url: URL): unknown {
  const key = `${url.port}${url.pathname}`;
  switch (key) {
    // Ollama: GET /api/tags lists models, POST /api/show gives capabilities (docs/api.md).
    case '11434/api/tags':
      return { models: [{ name: 'qwen3:8b', model: 'qwen3:8b' }] };
    case '11434/api/show':
      return { capabilities: ['completion', 'tools', 'thinking'], model_info: { 'qwen3.context_length': 40960 } };
    // LM Studio: the OpenAI-compatible GET /v1/models.
    case '1234/v1/models':
      return { object: 'list', data: [{ id: 'qwen/qwen3-8b', object: 'model', owned_by: 'organization_owner' }] };
    // llama.cpp server: GET /models (also served as /v1/models) and GET /props (tools/server/README.md).
    case '8080/models':
      return { object: 'list', data: [{ id: 'qwen3-8b', object: 'model', owned_by: 'llamacpp', meta: { n_ctx_train: 40960 } }] };
    case '8080/props':
      return { default_generation_settings: { n_ctx: 32768 }, modalities: { vision: false } };
    default:
      return undefined;
  }
}

async function discoveryFetch(input: string | URL | Request): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const answer = discoveryAnswer(url);
  return answer === undefined ? new Response('not found', { status: 404 }) : Response.json(answer);
}

async function importFromOmp(specifier: string): Promise<Record<string, unknown>> {
  return (await import(Bun.resolveSync(specifier, OMP_DIR))) as Record<string, unknown>;
}

export interface Registry {
  find(provider: string, id: string): unknown;
  refreshDiscoverableProviders(ids: Iterable<string>, strategy: string): Promise<void>;
  readonly authStorage: { setRuntimeApiKey(provider: string, key: string): void };
}

/** An OMP ModelRegistry of a check's own: its models.yml and model cache in `dir`, its discovery through `fetch`. */
export async function ompRegistry(dir: string, modelsYml: string, fetch: (input: string | URL | Request) => Promise<Response>): Promise<Registry> {
  const [models, sdkModule] = await Promise.all([importFromOmp('@oh-my-pi/pi-coding-agent/config/model-registry'), importFromOmp('@oh-my-pi/pi-coding-agent/sdk')]);
  const { sdk } = await loadHost();
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}/models.yml`, modelsYml);
  const auth = await (sdkModule['discoverAuthStorage'] as (dir: string) => Promise<unknown>)(dir);
  const ModelRegistry = models['ModelRegistry'] as new (auth: unknown, modelsPath: string, options: Record<string, unknown>) => Registry;
  return new ModelRegistry(auth, `${dir}/models.yml`, { settings: sdk.Settings.isolated({}), cacheDbPath: `${dir}/models.db`, fetch });
}

/** The capture's registry: models.yml's OpenAI chat provider, discovery answered by the stubs, a key for each hosted provider. */
export async function captureRegistry(dir: string): Promise<{ registry: Registry; models: Map<ProviderCase, unknown> }> {
  const registry = await ompRegistry(dir, MODELS_YML, discoveryFetch);
  await registry.refreshDiscoverableProviders(['ollama', 'lm-studio', 'llama.cpp'], 'online');
  for (const provider of ['openai', 'openrouter', 'anthropic', 'google']) registry.authStorage.setRuntimeApiKey(provider, `test-key-never-sent-${provider}`);
  const found = new Map<ProviderCase, unknown>();
  for (const each of PROVIDER_CASES) {
    const model = registry.find(each.provider, each.model);
    if (!model) throw new Error(`OMP's registry has no ${each.provider}/${each.model} (${each.source})`);
    found.set(each, model);
  }
  return { registry, models: found };
}

/** One request the provider layer made during the turn. */
export interface CapturedRequest {
  readonly method: string;
  readonly url: string;
  readonly body: unknown;
  /** What the stand-in answered: the provider's refusal, or a capture-only error once accepted. */
  readonly status: number;
}

/** Answers a captured body: a refusal as the provider writes it, or null when the provider accepts it. */
export type Answer = (url: string, body: unknown) => { readonly status: number; readonly body: string } | null;

/**
 * The harness's session, prompted once with `fetch` replaced. An accepted request is answered with
 * an error the agent loop does not retry (there is no model behind it), so the turn ends at its first
 * accepted request; a refused one with the provider's own status and body, so whatever OMP does next
 * (its retry without strict tools, §10) is captured as well.
 */
export async function captureTurn(h: Harness, prompt: string, answer: Answer): Promise<CapturedRequest[]> {
  // Anthropic's first-party transport is node:https, not fetch (pi-ai cowork-fetch.ts); a configured
  // proxy hands the request to fetch instead ("Bun's own fetch honors init.proxy"), so one is named
  // here. It is never dialled: the stand-in below answers every request. (Read once per provider
  // and process by pi-ai's getProxyForProvider; nothing else in test:host talks to Anthropic.)
  process.env['PI_PROXY_ANTHROPIC'] = 'http://127.0.0.1:9';
  const captured: CapturedRequest[] = [];
  const original = globalThis.fetch;
  const standIn = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const text = request.method === 'GET' ? '' : await request.text();
    let body: unknown = text;
    try {
      body = text === '' ? null : JSON.parse(text);
    } catch {
      // Not JSON: kept as text, and the rules refuse it.
    }
    const refusal = answer(request.url, body);
    const reply = refusal ?? { status: 400, body: JSON.stringify({ error: { message: 'test:host captured this request; nothing was sent', type: 'invalid_request_error' } }) };
    captured.push({ method: request.method, url: request.url, body, status: reply.status });
    return new Response(reply.body, { status: reply.status, headers: { 'content-type': 'application/json' } });
  };
  globalThis.fetch = Object.assign(standIn, { preconnect: () => {} }) as unknown as typeof fetch;
  try {
    await h.session.prompt(prompt);
  } finally {
    globalThis.fetch = original;
  }
  return captured;
}
