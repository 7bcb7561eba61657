/**
 * Why a real model request failed, from the messages the provider SDKs really give (issue 30):
 * each kind, each text one sentence that says what to do, and a key never shown.
 */
import { describe, expect, it } from 'vitest';
import { classifyFailure, MODEL_PROBLEMS, notAllowed, redact, statusOf, type ModelProblem, type ModelProblemKind } from './modelErrors';
import { PRESETS, type PresetId } from './presets';

const ORIGIN = 'http://127.0.0.1:4393';
/** A copy of the page served from a static host: not on this computer. */
const HOSTED_ORIGIN = 'https://seed-desk.example.org';
const KEY = 'sk-test-KEY-must-not-leak-123';

/** Classifies a failure; `probes` counts the opaque requests it made. */
async function classify(message: string, { streamStarted = false, probe = false, preset = 'ollama' as PresetId, model = 'qwen3', origin = ORIGIN, baseUrl = undefined as string | undefined } = {}) {
  let probes = 0;
  const problem = await classifyFailure(
    {
      message,
      streamStarted,
      probe: async () => {
        probes += 1;
        return probe;
      },
    },
    PRESETS[preset],
    model,
    origin,
    baseUrl,
  );
  return { problem, probes };
}

/**
 * The real error bodies, as the provider SDKs turn them into pi-ai's `errorMessage` ("<status> " and
 * the body's `error.message`, or the `error` value as JSON when it is not an object with a message,
 * or the whole body for Anthropic's SDK): see the sources cited in `modelErrors.ts`.
 */
const OPENAI_SCHEMA = `400 Invalid schema for function 'seed_desk': schema must be a JSON Schema of 'type: "object"', got 'type: "None"'.`;
const LMSTUDIO_SCHEMA = `400 ${JSON.stringify(JSON.stringify([0, 1].map(() => null).map((_, index) => ({ code: 'invalid_union_discriminator', options: ['object'], path: [index, 'function', 'parameters', 'type'], message: "Invalid discriminator value. Expected 'object'" })), null, 2))}`;
const ANTHROPIC_SCHEMA = `400 ${JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'tools.0.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level' } })}`;
const OPENROUTER_NO_TOOLS = '404 No endpoints found that support tool use. To learn more about provider routing, visit: https://openrouter.ai/docs/provider-routing';

interface Case {
  readonly name: string;
  readonly kind: ModelProblemKind;
  readonly problem: () => Promise<ModelProblem>;
}

const first = async (message: string, options: Parameters<typeof classify>[1] = {}) => (await classify(message, options)).problem;

/** Every kind, from a realistic message. */
const CASES: readonly Case[] = [
  { name: 'Ollama: connection error, something answers (CORS)', kind: 'cross-origin', problem: () => first('Connection error.', { probe: true }) },
  { name: 'Ollama: connection error, nothing answers', kind: 'no-server', problem: () => first('Connection error.', { probe: false }) },
  { name: 'Ollama from a page served over https: connection error, nothing answers', kind: 'local-network', problem: () => first('Connection error.', { probe: false, origin: HOSTED_ORIGIN }) },
  { name: 'OpenAI: connection error, nothing answers', kind: 'no-server', problem: () => first('Connection error.', { probe: false, preset: 'openai' }) },
  { name: 'OpenAI: 401', kind: 'unauthorized', problem: () => first('401 Incorrect API key provided: sk-test-********-123. You can find your API key at https://platform.openai.com/account/api-keys.', { preset: 'openai' }) },
  { name: 'OpenAI: 403', kind: 'forbidden', problem: () => first('403 Project `proj_abc` does not have access to model `gpt-4o`', { preset: 'openai', model: 'gpt-4o' }) },
  { name: 'Ollama: 404 model not found', kind: 'unknown-model', problem: () => first('404 model "x" not found, try pulling it first', { model: 'x' }) },
  { name: 'Ollama: 400 no tools', kind: 'no-tools', problem: () => first('400 registry.ollama.ai/library/gemma:2b does not support tools', { model: 'gemma:2b' }) },
  { name: 'OpenAI: 400 the tool schema', kind: 'tool-schema', problem: () => first(OPENAI_SCHEMA, { preset: 'openai', model: 'gpt-4o' }) },
  { name: 'LM Studio: 400 the tool schema', kind: 'tool-schema', problem: () => first(LMSTUDIO_SCHEMA, { preset: 'lmstudio', model: 'qwen3-8b' }) },
  { name: 'Anthropic: 400 the tool schema', kind: 'tool-schema', problem: () => first(ANTHROPIC_SCHEMA, { preset: 'anthropic', model: 'claude-sonnet-4-5' }) },
  { name: 'OpenRouter: 404 no endpoint with tools', kind: 'no-tools', problem: () => first(OPENROUTER_NO_TOOLS, { preset: 'openrouter', model: 'deepseek/deepseek-r1:free' }) },
  { name: 'OpenAI: 429', kind: 'rate-limit', problem: () => first('429 Rate limit reached for gpt-4o in organization org-abc on requests per min (RPM): Limit 3, Used 3, Requested 1.', { preset: 'openai', model: 'gpt-4o' }) },
  { name: 'llama.cpp: 500', kind: 'server-error', problem: () => first('500 Failed to parse tool call arguments as JSON', { preset: 'llamacpp' }) },
  { name: 'Anthropic: cut after the stream started', kind: 'stream-cut', problem: () => first('terminated', { streamStarted: true, preset: 'anthropic' }) },
  { name: 'an address the page may not call', kind: 'not-allowed', problem: async () => notAllowed('http://192.168.1.20:11434/v1') },
  { name: 'OpenAI: another 400', kind: 'other', problem: () => first('400 Unrecognized request argument supplied: store', { preset: 'openai', model: 'gpt-4o' }) },
];

/** Words a text uses to say what to do. */
const FIX = /\b(start|restart|paste|pick|wait|check|try|turn on|let|run|use|press|pull|look|ask|give|name|make|allow)\b/i;

describe('classifyFailure: each kind from what the SDK says', () => {
  it('the cases cover every kind there is', () => {
    expect(new Set(CASES.map((entry) => entry.kind))).toEqual(new Set(MODEL_PROBLEMS));
  });

  it.each(CASES)('$name → $kind', async ({ kind, problem }) => {
    expect((await problem()).kind).toBe(kind);
  });

  it('a connection error asks whether anything answers (one probe); an HTTP status or a started stream never does', async () => {
    expect((await classify('Connection error.', { probe: true })).probes).toBe(1);
    expect((await classify('Connection error.', { probe: false })).probes).toBe(1);
    expect((await classify('401 Incorrect API key provided')).probes).toBe(0);
    expect((await classify('Connection error.', { streamStarted: true, probe: true })).probes).toBe(0);
  });

  it('a failure after the stream started is a cut stream whatever the message says', async () => {
    expect((await classify('429 Rate limit', { streamStarted: true })).problem.kind).toBe('stream-cut');
    expect((await classify('Connection error.', { streamStarted: true })).problem.kind).toBe('stream-cut');
  });

  it('a 400 that says the model does not exist is an unknown model; 502 and 503 are server errors', async () => {
    expect((await classify('400 The model `gpt-5-nope` does not exist or you do not have access to it.', { preset: 'openai', model: 'gpt-5-nope' })).problem.kind).toBe('unknown-model');
    expect((await classify('502 Bad Gateway', { preset: 'openrouter' })).problem.kind).toBe('server-error');
    expect((await classify('503 Service Unavailable', { preset: 'openrouter' })).problem.kind).toBe('server-error');
  });
});

describe('classifyFailure: each text is one sentence with its fix', () => {
  it.each(CASES)('$name: one sentence, ends with a period, says what to do', async ({ problem }) => {
    const { text } = await problem();
    expect(text).not.toContain('\n');
    expect(text.endsWith('.'), text).toBe(true);
    // No sentence ends inside it ("X. Y", "X! Y"); a question may lead to its fix, as the issue words the missing server:
    // "Is Ollama running? Start it with `ollama serve`".
    expect(text, text).not.toMatch(/[.!]\s+[A-Z]/);
    expect(text, text).toMatch(FIX);
  });

  it('Ollama refusing a page served from elsewhere names OLLAMA_ORIGINS and that origin', async () => {
    const { text } = await first('Connection error.', { probe: true, origin: HOSTED_ORIGIN });
    expect(text).toContain(`OLLAMA_ORIGINS=${HOSTED_ORIGIN}`);
  });

  it('a refusal seen from a page on localhost or 127.0.0.1 does not ask for OLLAMA_ORIGINS: Ollama allows those origins on any port by itself', async () => {
    for (const origin of [ORIGIN, 'http://localhost:5173']) {
      const { kind, text } = await first('Connection error.', { probe: true, origin });
      expect(kind).toBe('cross-origin');
      expect(text).not.toContain('OLLAMA_ORIGINS');
      expect(text).toContain('Ollama itself accepts any page on localhost or 127.0.0.1');
    }
  });

  it('nothing answering on this computer, asked from a page served elsewhere, names Chrome\'s "Local network access" and the origin to allow, not "Is Ollama running?"', async () => {
    const { kind, text } = await first('Connection error.', { probe: false, origin: HOSTED_ORIGIN });
    expect(kind).toBe('local-network');
    expect(text).toContain('"Local network access"');
    expect(text).toContain(`OLLAMA_ORIGINS=${HOSTED_ORIGIN} ollama serve`);
    expect(text).not.toContain('Is Ollama running');
    expect((await first('Connection error.', { probe: false, origin: HOSTED_ORIGIN, preset: 'lmstudio' })).text).toContain('`lms server start --cors`');
    expect((await first('Connection error.', { probe: false, origin: HOSTED_ORIGIN, preset: 'compatible', baseUrl: 'http://127.0.0.1:8000/v1' })).text).toContain(`let it allow ${HOSTED_ORIGIN}`);
    // A hosted provider from the same page is not on this computer: no local network to allow.
    expect((await first('Connection error.', { probe: false, origin: HOSTED_ORIGIN, preset: 'openai' })).kind).toBe('no-server');
  });

  it('LM Studio\'s hints name `lms server start --cors`', async () => {
    expect((await first('Connection error.', { probe: false, preset: 'lmstudio' })).text).toContain('`lms server start --cors`');
    expect((await first('Connection error.', { probe: true, preset: 'lmstudio' })).text).toContain('`lms server start --cors`');
  });

  it('each refused tool schema quotes the provider\'s own words and says what it wants, and sends the learner to no other provider', async () => {
    const openai = await first(OPENAI_SCHEMA, { preset: 'openai', model: 'gpt-4o' });
    expect(openai.text).toContain(`"schema must be a JSON Schema of 'type: "object"'"`);
    expect(openai.text).toContain('its root must be one object ("type": "object")');
    const lmstudio = await first(LMSTUDIO_SCHEMA, { preset: 'lmstudio' });
    expect(lmstudio.text).toContain("invalid_union_discriminator … Expected 'object'");
    expect(lmstudio.text).toContain('its root must be one object');
    const anthropic = await first(ANTHROPIC_SCHEMA, { preset: 'anthropic' });
    expect(anthropic.text).toContain('"input_schema does not support oneOf, allOf, or anyOf at the top level"');
    expect(anthropic.text).toContain('its root may not be a oneOf, anyOf or allOf');
    // The same rule through OpenRouter (an OpenAI model behind it) reads the same.
    expect((await first(OPENAI_SCHEMA, { preset: 'openrouter', model: 'openai/gpt-4o' })).text).toContain('OpenRouter refused a tool\'s parameter schema');
    for (const [id, { text }] of [['openai', openai], ['lmstudio', lmstudio], ['anthropic', anthropic]] as const) {
      expect(text).toContain('"Back to the shipped extension"');
      // After the provider's own name, which opens the sentence, no provider or server is named.
      expect(text.startsWith(PRESETS[id].label)).toBe(true);
      expect(text.slice(PRESETS[id].label.length)).not.toMatch(/local server|provider|Ollama|LM Studio|llama\.cpp|OpenAI|Anthropic|OpenRouter/);
    }
  });

  it('OpenRouter\'s "No endpoints found that support tool use" is a model without tools, not an unknown model', async () => {
    const { kind, text } = await first(OPENROUTER_NO_TOOLS, { preset: 'openrouter', model: 'deepseek/deepseek-r1:free' });
    expect(kind).toBe('no-tools');
    expect(text).toContain('"deepseek/deepseek-r1:free"');
    expect(text).toContain('supported_parameters=tools');
    expect(text).not.toContain('does not know the model');
  });

  it('nothing answering at a local server says how to start it; the model-specific texts name the model', async () => {
    expect((await first('Connection error.')).text).toContain('ollama serve');
    expect((await first('Connection error.', { preset: 'lmstudio' })).text).toContain('lms server start');
    expect((await first('404 model "llama9" not found, try pulling it first', { model: 'llama9' })).text).toContain('ollama pull llama9');
    expect((await first('404 The model `gpt-x` does not exist', { preset: 'openai', model: 'gpt-x' })).text).not.toContain('ollama pull');
    expect((await first('400 registry.ollama.ai/library/gemma:2b does not support tools', { model: 'gemma:2b' })).text).toContain('"gemma:2b"');
  });

  it('a 401 says to paste a valid key and test again', async () => {
    const { text } = await first('401 Incorrect API key provided', { preset: 'openai' });
    expect(text).toContain('"API key"');
    expect(text).toContain('test the connection again');
  });
});

describe('statusOf', () => {
  it('reads the HTTP status the SDK puts first, and nothing else', () => {
    expect(statusOf('401 Incorrect API key provided')).toBe(401);
    expect(statusOf('  404 model "x" not found')).toBe(404);
    expect(statusOf('Connection error.')).toBeNull();
    expect(statusOf('4011 not a status')).toBeNull();
    expect(statusOf('error 500')).toBeNull();
  });
});

describe('redact', () => {
  it('takes the key out everywhere it appears', () => {
    const text = `${KEY} was sent; "Bearer ${KEY}" echoed: x${KEY}y`;
    const redacted = redact(text, KEY);
    expect(redacted).not.toContain(KEY);
    expect(redacted).toBe('••• was sent; "Bearer •••" echoed: x•••y');
  });

  it('reads the key literally, and leaves a text without it alone', () => {
    expect(redact('key a.b*c(d) here, not aXb*c(d)', 'a.b*c(d)')).toBe('key ••• here, not aXb*c(d)');
    expect(redact('nothing to hide', KEY)).toBe('nothing to hide');
  });

  it('an empty or tiny key changes nothing (no key, or not one worth hiding)', () => {
    expect(redact('a text', '')).toBe('a text');
    expect(redact('abc abc', 'abc')).toBe('abc abc');
  });

  it('a classified text that echoes the key no longer has it once redacted', async () => {
    const { text } = await first(`400 Invalid header: Bearer ${KEY}`, { preset: 'openai' });
    expect(text).toContain(KEY);
    expect(redact(text, KEY)).not.toContain(KEY);
  });
});
