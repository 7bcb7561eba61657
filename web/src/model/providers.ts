import type { Api, Context, Model, StreamOptions } from '@mariozechner/pi-ai';
import type { ModelStream, ModelStreamCall } from './modelLoop';
import { PRESETS, type ModelApi, type PresetId } from './presets';

/** What the learner typed into the Real model form. The key stays on the page (this module and `modelSession`), never in the worker. */
export interface ModelSettings {
  readonly preset: PresetId;
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey: string;
}

/** A pi-ai provider's stream function, as far as the loop uses it. */
export type StreamFunction = (model: Model<Api>, context: Context, options: StreamOptions) => ModelStreamCall;

/**
 * pi-ai's provider entry points, one chunk each, loaded when first used: a learner on Ollama never
 * fetches the Anthropic SDK. Its catalogue of hosted models (`models.generated.js`, 300 KB) is
 * replaced at build time by an empty one (vite.config.ts): the learner names the model.
 */
const ENTRY: Record<ModelApi, () => Promise<StreamFunction>> = {
  'openai-completions': async () => (await import('@mariozechner/pi-ai/openai-completions')).streamOpenAICompletions as unknown as StreamFunction,
  'anthropic-messages': async () => (await import('@mariozechner/pi-ai/anthropic')).streamAnthropic as unknown as StreamFunction,
};

export async function loadProvider(api: ModelApi): Promise<StreamFunction> {
  return ENTRY[api]();
}

/** How many tokens a reply may take unless the learner says otherwise ("Reply token limit"). */
export const DEFAULT_REPLY_TOKENS = 4_096;

/**
 * The model as pi-ai's custom-model form describes it (the README's way for a local server).
 * `replyTokens` is passed as `maxTokens` in every call (`modelStream`): without it pi-ai sends no
 * cap to an OpenAI-compatible server and `max_tokens` = the model's maximum / 3 to Anthropic.
 */
export function modelOf(settings: ModelSettings, replyTokens = DEFAULT_REPLY_TOKENS): Model<Api> {
  const preset = PRESETS[settings.preset];
  return {
    id: settings.model,
    name: settings.model,
    api: preset.api,
    provider: settings.preset,
    baseUrl: trimSlash(settings.baseUrl),
    reasoning: false,
    input: ['text'],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 32_000,
    maxTokens: replyTokens,
    // Only the field's name: every other setting is what pi-ai detects from the provider and address.
    ...(preset.api === 'openai-completions' ? { compat: { maxTokensField: preset.maxTokensField } } : {}),
  };
}

/** What the page hears of each request: the provider's answer began; the tools as the request body carried them. */
export interface StreamWatch {
  readonly started: () => void;
  readonly sentTools: (tools: unknown) => void;
}

/**
 * A stream for the loop. No retries: a failure is shown at once, with its fix. `watch.started`
 * reports that the provider's answer had begun (so a failure after it is a cut stream);
 * `watch.sentTools`, the tools as pi-ai put them in the request body (its `onPayload`, which holds
 * no key: that travels in a header), since each provider's shape is what its model is told.
 */
export function modelStream(stream: StreamFunction, settings: ModelSettings, watch: StreamWatch, replyTokens = DEFAULT_REPLY_TOKENS): ModelStream {
  const model = modelOf(settings, replyTokens);
  // A local server takes no key; the SDK still wants one, and a placeholder is what pi-ai's README uses.
  const apiKey = settings.apiKey === '' ? 'no-key' : settings.apiKey;
  return (context, signal) =>
    stream(model, context, {
      apiKey,
      signal,
      maxTokens: replyTokens,
      maxRetries: 0,
      onResponse: () => watch.started(),
      onPayload: (payload) => {
        watch.sentTools(typeof payload === 'object' && payload !== null ? (payload as { tools?: unknown }).tools : undefined);
        return undefined;
      },
    });
}

/** The models the provider lists (`GET /models`, OpenAI's and Anthropic's shape both have `data[].id`). */
export async function listModels(settings: ModelSettings, signal: AbortSignal): Promise<Response> {
  const preset = PRESETS[settings.preset];
  const headers: Record<string, string> =
    preset.api === 'anthropic-messages'
      ? { 'x-api-key': settings.apiKey, 'anthropic-version': '2023-06-01', 'anthropic-dangerous-direct-browser-access': 'true' }
      : settings.apiKey === ''
        ? {}
        : { authorization: `Bearer ${settings.apiKey}` };
  const base = trimSlash(settings.baseUrl);
  return fetch(preset.api === 'anthropic-messages' ? `${base}/v1/models` : `${base}/models`, { headers, signal, credentials: 'omit', cache: 'no-store' });
}

/** Whether anything answers at the address: an opaque request, which CORS does not block, only tells that. */
export async function somethingAnswers(baseUrl: string): Promise<boolean> {
  try {
    await fetch(baseUrl, { mode: 'no-cors', credentials: 'omit', cache: 'no-store' });
    return true;
  } catch {
    return false;
  }
}

function trimSlash(url: string): string {
  return url.trim().replace(/\/+$/, '');
}
