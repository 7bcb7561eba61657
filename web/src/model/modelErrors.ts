import type { ProviderPreset } from './presets';

/**
 * Why a model request failed, as one sentence that says what to do. The provider's SDK reports an
 * HTTP failure as "<status> <body>" and a request that never got an answer as a connection error;
 * the browser does not tell a server that is not there from one that refused this origin, so a
 * second, opaque request (`probe`) asks whether anything answers at the address at all.
 */
export const MODEL_PROBLEMS = ['no-server', 'cross-origin', 'unauthorized', 'forbidden', 'unknown-model', 'no-tools', 'tool-schema', 'rate-limit', 'stream-cut', 'server-error', 'not-allowed', 'other'] as const;
export type ModelProblemKind = (typeof MODEL_PROBLEMS)[number];

export interface ModelProblem {
  readonly kind: ModelProblemKind;
  readonly text: string;
}

export interface FailureFacts {
  /** The provider SDK's error message (pi-ai's `errorMessage`). */
  readonly message: string;
  /** Whether the provider had answered with a streaming response before the failure. */
  readonly streamStarted: boolean;
  /** For a request that got no answer: whether anything answers at the address (an opaque request). */
  readonly probe: () => Promise<boolean>;
}

const STATUS = /^(\d{3})\b/;

export function statusOf(message: string): number | null {
  const match = STATUS.exec(message.trim());
  return match ? Number(match[1]) : null;
}

export async function classifyFailure(facts: FailureFacts, preset: ProviderPreset, model: string, origin: string): Promise<ModelProblem> {
  if (facts.streamStarted) return problem('stream-cut', 'The answer stopped in the middle of the stream (the connection closed): what arrived is kept, and "Ask the model" starts the request again.');
  const status = statusOf(facts.message);
  if (status === null) {
    if (await facts.probe()) return problem('cross-origin', preset.allowOrigin(origin));
    return problem('no-server', preset.start ?? `Nothing answered at ${preset.label}'s address: check your network connection and try again.`);
  }
  const body = facts.message.toLowerCase();
  if (status === 401) return problem('unauthorized', `${preset.label} did not accept the API key (401): paste a valid key into "API key" and test the connection again.`);
  if (status === 403) return problem('forbidden', `${preset.label} refused the request (403): this key is not allowed to use that model or endpoint; check the key's permissions or pick another model.`);
  if (status === 429) return problem('rate-limit', `${preset.label} says too many requests (429): wait a minute, or check your plan's limits, then ask again.`);
  if (/tool/.test(body) && /(not support|does not support|unsupported|no support)/.test(body)) {
    return problem('no-tools', `The model "${model}" does not support tool calls, so it cannot call seed_desk: pick a model that does (for Ollama, one tagged "tools", such as qwen3 or llama3.1).`);
  }
  if (status === 400 && /schema/.test(body) && /(function|tool|parameters|input_schema)/.test(body)) {
    return problem('tool-schema', `${preset.label} refused a tool's parameter schema (${firstLine(facts.message).replace(/[.\s]+$/, '')}): the running extension registers seed_desk's as one schema per operation, which this provider does not take, so use a provider that does (a local server) or reshape the schema in the Code tab.`);
  }
  if (status === 404 || (/model/.test(body) && /(not found|does not exist|unknown|not exist)/.test(body))) {
    return problem('unknown-model', `${preset.label} does not know the model "${model}": press "Test connection" to list its models and pick one${preset.id === 'ollama' ? ' (or pull it with `ollama pull ' + model + '`)' : ''}.`);
  }
  if (status >= 500) return problem('server-error', `${preset.label} failed with ${status}: the server's own error; try again, or look at its log.`);
  return problem('other', `${preset.label} answered ${status} (${firstLine(facts.message).replace(/[.\s]+$/, '')}): check the base URL and the model name, or try another model.`);
}

export function notAllowed(baseUrl: string): ModelProblem {
  return problem('not-allowed', `This page may only call a model on this computer (localhost or 127.0.0.1, any port) or at OpenAI, Anthropic or OpenRouter, and "${baseUrl}" is neither: run the server locally, or use one of those.`);
}

function problem(kind: ModelProblemKind, text: string): ModelProblem {
  return { kind, text };
}

function firstLine(message: string): string {
  const line = message.replace(STATUS, '').trim().split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** A key never appears in what the page shows or records, even when a provider echoes it back. */
export function redact(text: string, key: string): string {
  return key.length >= 4 ? text.split(key).join('•••') : text;
}
