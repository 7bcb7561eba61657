import { loopbackOrigin, type ProviderPreset } from './presets';

/**
 * Why a model request failed, as one sentence that says what to do. The provider's SDK reports an
 * HTTP failure as "<status> <body>" and a request that never got an answer as a connection error;
 * the browser does not tell a server that is not there from one that refused this origin, so a
 * second, opaque request (`probe`) asks whether anything answers at the address at all.
 */
export const MODEL_PROBLEMS = ['no-server', 'local-network', 'cross-origin', 'unauthorized', 'forbidden', 'unknown-model', 'no-tools', 'tool-schema', 'rate-limit', 'stream-cut', 'server-error', 'not-allowed', 'other'] as const;
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

/**
 * A tool schema a provider refused, recognised by the words of its real error body, each with what
 * the provider wants. OpenAI (and OpenRouter passing an OpenAI model's answer on): `400 {"error":
 * {"message":"Invalid schema for function '…': schema must be a JSON Schema of 'type: \"object\"',
 * got 'type: \"None\"'.","type":"invalid_request_error","code":"invalid_function_parameters"}}`
 * (ComposioHQ/composio#1829, vercel/ai#7005). LM Studio: `400 {"error":"[{\"code\":
 * \"invalid_union_discriminator\",\"path\":[0,\"function\",\"parameters\",\"type\"],\"message\":
 * \"Invalid discriminator value. Expected 'object'\"}]"}` (iOfficeAI/AionUi#265,
 * mcowger/generic-copilot#40). Anthropic: `400 {"type":"error","error":{"type":
 * "invalid_request_error","message":"tools.0.custom.input_schema: input_schema does not support
 * oneOf, allOf, or anyOf at the top level"}}` (anthropics/claude-code#5973). None of them is helped
 * by another provider here: LM Studio refuses what OpenAI refuses, and Ollama takes it but drops
 * everything but type, properties and required before its model sees it (omp-host §10).
 */
const SCHEMA_REFUSALS: readonly { readonly test: (body: string) => boolean; readonly quote: string; readonly wants: string }[] = [
  { test: (body) => body.includes(`schema must be a json schema of 'type: "object"'`), quote: `schema must be a JSON Schema of 'type: "object"'`, wants: 'its root must be one object ("type": "object")' },
  { test: (body) => body.includes('invalid_union_discriminator') && body.includes('parameters'), quote: "invalid_union_discriminator … Expected 'object'", wants: 'its root must be one object ("type": "object")' },
  { test: (body) => body.includes('does not support oneof, allof, or anyof at the top level'), quote: 'input_schema does not support oneOf, allOf, or anyOf at the top level', wants: 'its root may not be a oneOf, anyOf or allOf' },
];

const SCHEMA_FIX = 'so make the running extension\'s schema one object with its fields under "properties" (the Code tab), or go "Back to the shipped extension"';

/** What makes a local server accept a page from another origin, where it takes more than a setting. */
const ACCEPT_ORIGIN: Partial<Record<ProviderPreset['id'], (origin: string) => string>> = {
  ollama: (origin) => `\`OLLAMA_ORIGINS=${origin} ollama serve\``,
  lmstudio: () => '`lms server start --cors`',
};

export async function classifyFailure(facts: FailureFacts, preset: ProviderPreset, model: string, origin: string, baseUrl = preset.baseUrl): Promise<ModelProblem> {
  if (facts.streamStarted) return problem('stream-cut', 'The answer stopped in the middle of the stream (the connection closed): what arrived is kept, and "Ask the model" starts the request again.');
  const status = statusOf(facts.message);
  if (status === null) {
    if (await facts.probe()) return problem('cross-origin', preset.allowOrigin(origin));
    // A page served from elsewhere (https on a static host) reaches this computer only once the
    // browser lets it: Chrome asks for "Local network access" first, and a refusal, like a server
    // that is not there, leaves the probe unanswered too.
    if (loopbackOrigin(baseUrl) && !loopbackOrigin(origin)) return problem('local-network', localNetwork(preset, origin));
    return problem('no-server', preset.start ?? `Nothing answered at ${preset.label}'s address: check your network connection and try again.`);
  }
  const body = facts.message.toLowerCase();
  const refusal = status === 400 ? SCHEMA_REFUSALS.find((each) => each.test(body)) : undefined;
  if (refusal) return problem('tool-schema', `${preset.label} refused a tool's parameter schema ("${refusal.quote}"): ${refusal.wants}, ${SCHEMA_FIX}.`);
  if (status === 401) return problem('unauthorized', `${preset.label} did not accept the API key (401): paste a valid key into "API key" and test the connection again.`);
  if (status === 403) return problem('forbidden', `${preset.label} refused the request (403): this key is not allowed to use that model or endpoint; check the key's permissions or pick another model.`);
  if (status === 429) return problem('rate-limit', `${preset.label} says too many requests (429): wait a minute, or check your plan's limits, then ask again.`);
  // OpenRouter answers 404 when no provider it routes to serves this model with tools: the model
  // exists (evalstate/fast-agent#122, bobrware/bobrchat#60), so this comes before the unknown model.
  if (body.includes('no endpoints found that support tool use')) {
    return problem('no-tools', `${preset.label} has no endpoint that serves "${model}" with tool calls ("No endpoints found that support tool use"), so it cannot call seed_desk: pick a model that takes tools (openrouter.ai/models?supported_parameters=tools lists them).`);
  }
  if (/tool/.test(body) && /(not support|does not support|unsupported|no support)/.test(body)) {
    return problem('no-tools', `The model "${model}" does not support tool calls, so it cannot call seed_desk: pick a model that does (for Ollama, one tagged "tools", such as qwen3 or llama3.1).`);
  }
  if (status === 400 && /schema/.test(body) && /(function|tool|parameters|input_schema)/.test(body)) {
    return problem('tool-schema', `${preset.label} refused a tool's parameter schema (${firstLine(facts.message).replace(/[.\s]+$/, '')}): ${SCHEMA_FIX}.`);
  }
  if (status === 404 || (/model/.test(body) && /(not found|does not exist|unknown|not exist)/.test(body))) {
    return problem('unknown-model', `${preset.label} does not know the model "${model}": press "Test connection" to list its models and pick one${preset.id === 'ollama' ? ' (or pull it with `ollama pull ' + model + '`)' : ''}.`);
  }
  if (status >= 500) return problem('server-error', `${preset.label} failed with ${status}: the server's own error; try again, or look at its log.`);
  return problem('other', `${preset.label} answered ${status} (${firstLine(facts.message).replace(/[.\s]+$/, '')}): check the base URL and the model name, or try another model.`);
}

function localNetwork(preset: ProviderPreset, origin: string): string {
  const accept = ACCEPT_ORIGIN[preset.id]?.(origin) ?? `let it allow ${origin}`;
  return `Nothing answered on this computer, and this page comes from ${origin}, not from it: Chrome asks for "Local network access" before such a page may reach localhost, so allow it for this site (the icon at the left of the address bar), and start the server so it accepts this origin (${accept}).`;
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
