import { describe, expect, it } from 'vitest';
import { judgeRequest, seedDeskToldEnough, type Judgement, type ToolAsTold } from './index';
import { DESCRIPTION, FLAT_SCHEMA, UNION_SCHEMA } from './seedDeskSchemas.testkit';

/**
 * Each provider's rules against the refusals they reproduce: the real error bodies named in
 * issue 35, with the `seed_desk` schema as registered before it (a root `oneOf`) as the refused
 * input, and a flat object schema as the accepted one.
 */

const chatBody = (parameters: unknown, strict?: boolean) => ({
  model: 'gpt-4.1-mini',
  messages: [{ role: 'user', content: 'Reserve one packet of scarlet runner beans.' }],
  stream: true,
  tools: [{ type: 'function', function: { name: 'seed_desk', description: DESCRIPTION, parameters, ...(strict === undefined ? {} : { strict }) } }],
});
const responsesBody = (parameters: unknown, strict: boolean) => ({
  model: 'gpt-5-mini',
  input: [{ role: 'user', content: 'Reserve one packet.' }],
  stream: true,
  tools: [{ type: 'function', name: 'seed_desk', description: DESCRIPTION, parameters, strict }],
});
const anthropicBody = (inputSchema: unknown) => ({
  model: 'claude-sonnet-4-5',
  max_tokens: 4096,
  messages: [{ role: 'user', content: 'Reserve one packet.' }],
  tools: [{ name: 'seed_desk', description: DESCRIPTION, input_schema: inputSchema }],
});
const googleBody = (schema: unknown) => ({
  contents: [{ role: 'user', parts: [{ text: 'Reserve one packet.' }] }],
  tools: [{ functionDeclarations: [{ name: 'seed_desk', description: DESCRIPTION, parametersJsonSchema: schema }] }],
});

function refusal(judgement: Judgement): { status: number; body: unknown } {
  if (judgement.accepted) throw new Error(`accepted: ${JSON.stringify(judgement.tools)}`);
  return { status: judgement.status, body: JSON.parse(judgement.body) };
}
function toldTools(judgement: Judgement): ToolAsTold[] {
  if (!judgement.accepted) throw new Error(`refused ${judgement.status}: ${judgement.body}`);
  return judgement.tools;
}
const onlyTool = (judgement: Judgement): ToolAsTold => {
  const tools = toldTools(judgement);
  expect(tools).toHaveLength(1);
  return tools[0]!;
};

/** OMP 18.2.3's strict rewrite of the union for OpenAI (omp-host.md §10): oneOf → anyOf, const → enum. */
const OMP_STRICT_UNION = JSON.parse(JSON.stringify(UNION_SCHEMA).replace('"oneOf"', '"anyOf"').replace(/"const":("\w+")/g, '"enum":[$1]')) as Record<string, unknown>;
/** A flat schema as strict mode wants it: every key required, the optional ones nullable. */
const STRICT_FLAT = {
  ...FLAT_SCHEMA,
  properties: Object.fromEntries(Object.entries(FLAT_SCHEMA['properties'] as Record<string, Record<string, unknown>>).map(([key, value]) => [key, key === 'op' ? value : { ...value, type: [value['type'], 'null'] }])),
  required: Object.keys(FLAT_SCHEMA['properties'] as object),
};

describe('OpenAI', () => {
  const typeNone = "Invalid schema for function 'seed_desk': schema must be a JSON Schema of 'type: \"object\"', got 'type: \"None\"'.";

  it('chat completions refuses the root oneOf with its real type: "None" body; the flat schema is accepted as sent', () => {
    expect(refusal(judgeRequest('openai-chat', chatBody(UNION_SCHEMA, false)))).toEqual({
      status: 400,
      body: { error: { message: typeNone, type: 'invalid_request_error', param: 'tools[0].function.parameters', code: 'invalid_function_parameters' } },
    });
    const tool = onlyTool(judgeRequest('openai-chat', chatBody(FLAT_SCHEMA, false)));
    expect(tool).toEqual({ name: 'seed_desk', description: DESCRIPTION, parameters: FLAT_SCHEMA });
    expect(seedDeskToldEnough(tool)).toEqual([]);
  });

  it('Responses refuses OMP\'s strict union, and again without strict (every turn fails)', () => {
    for (const strict of [true, false]) {
      expect(refusal(judgeRequest('openai-responses', responsesBody(OMP_STRICT_UNION, strict))).body).toEqual({
        error: { message: typeNone, type: 'invalid_request_error', param: 'tools[0].parameters', code: 'invalid_function_parameters' },
      });
    }
  });

  it('strict mode: every property required, additionalProperties false, supported keywords only', () => {
    const missing = refusal(judgeRequest('openai-responses', responsesBody(FLAT_SCHEMA, true)));
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: { message: "Invalid schema for function 'seed_desk': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'family'." } });
    const open = { ...STRICT_FLAT, additionalProperties: undefined };
    expect(refusal(judgeRequest('openai-chat', chatBody(JSON.parse(JSON.stringify(open)), true))).body).toMatchObject({ error: { message: "Invalid schema for function 'seed_desk': In context=(), 'additionalProperties' is required to be supplied and to be false." } });
    const nestedOneOf = { ...STRICT_FLAT, properties: { ...STRICT_FLAT.properties, packets: { oneOf: [{ type: 'number' }, { type: 'null' }] } } };
    expect(refusal(judgeRequest('openai-chat', chatBody(nestedOneOf, true))).body).toMatchObject({ error: { message: "Invalid schema for function 'seed_desk': In context=('properties', 'packets'), 'oneOf' is not permitted." } });
    const withDefault = { ...STRICT_FLAT, properties: { ...STRICT_FLAT.properties, packets: { type: 'number', default: 1 } } };
    expect(refusal(judgeRequest('openai-responses', responsesBody(withDefault, true))).body).toMatchObject({ error: { message: "Invalid schema for function 'seed_desk': In context=('properties', 'packets'), 'default' is not permitted.", param: 'tools[0].parameters' } });
    expect(seedDeskToldEnough(onlyTool(judgeRequest('openai-responses', responsesBody(STRICT_FLAT, true))))).toEqual([]);
    // Without strict, optional fields are fine.
    expect(toldTools(judgeRequest('openai-responses', responsesBody(FLAT_SCHEMA, false)))).toHaveLength(1);
  });
});

describe('LM Studio', () => {
  it('refuses the root oneOf with its real invalid_union_discriminator body; accepts the flat schema', () => {
    // The text LM Studio answers, word for word as the issue threads show it (tool index 0 here).
    const real = '[\n  {\n    "code": "invalid_union_discriminator",\n    "options": [\n      "object"\n    ],\n    "path": [\n      0,\n      "function",\n      "parameters",\n      "type"\n    ],\n    "message": "Invalid discriminator value. Expected \'object\'"\n  }\n]';
    expect(refusal(judgeRequest('lmstudio', chatBody(UNION_SCHEMA)))).toEqual({ status: 400, body: { error: real } });
    const tool = onlyTool(judgeRequest('lmstudio', chatBody(FLAT_SCHEMA)));
    expect(tool.parameters).toEqual(FLAT_SCHEMA);
    expect(seedDeskToldEnough(tool)).toEqual([]);
  });

  it('refuses an object without properties ("Required"), and keeps only the keys its zod schema declares', () => {
    const body = refusal(judgeRequest('lmstudio', chatBody({ type: 'object' }))).body as { error: string };
    expect(JSON.parse(body.error)).toEqual([{ code: 'invalid_type', expected: 'object', received: 'undefined', path: [0, 'function', 'parameters', 'properties'], message: 'Required' }]);
    const tool = onlyTool(judgeRequest('lmstudio', chatBody({ ...FLAT_SCHEMA, $schema: 'https://json-schema.org/draft/2020-12/schema', title: 'x' })));
    expect(tool.parameters).toEqual(FLAT_SCHEMA);
  });
});

describe('Anthropic', () => {
  it('refuses a root oneOf with its real body; pi-ai\'s empty object is accepted but tells the model nothing; the flat schema tells it all', () => {
    expect(refusal(judgeRequest('anthropic', anthropicBody(UNION_SCHEMA)))).toEqual({
      status: 400,
      body: { type: 'error', error: { type: 'invalid_request_error', message: 'tools.0.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level' } },
    });
    const empty = onlyTool(judgeRequest('anthropic', anthropicBody({ type: 'object', properties: {}, required: [] })));
    expect(seedDeskToldEnough(empty)).toEqual(['op "discover"', 'op "query"', 'op "inspect"', 'op "act"', 'act\'s field "action"', 'act\'s field "id"', 'act\'s field "packets"', 'act\'s field "expectedRevision"']);
    expect(seedDeskToldEnough(onlyTool(judgeRequest('anthropic', anthropicBody(FLAT_SCHEMA))))).toEqual([]);
    expect(refusal(judgeRequest('anthropic', anthropicBody({ properties: {} }))).body).toMatchObject({ error: { message: 'tools.0.custom.input_schema.type: Field required' } });
  });
});

describe('Google', () => {
  it('parametersJsonSchema must describe an object', () => {
    const refused = refusal(judgeRequest('google', googleBody(UNION_SCHEMA)));
    expect(refused).toMatchObject({ status: 400, body: { error: { code: 400, status: 'INVALID_ARGUMENT' } } });
    expect(seedDeskToldEnough(onlyTool(judgeRequest('google', googleBody(FLAT_SCHEMA))))).toEqual([]);
  });
});

describe('Ollama', () => {
  it('accepts the root oneOf but its Go struct keeps nothing of it: the model is told seed_desk takes no arguments', () => {
    for (const kind of ['ollama-native', 'ollama-openai'] as const) {
      const tool = onlyTool(judgeRequest(kind, chatBody(UNION_SCHEMA)));
      expect(tool.parameters).toEqual({ type: '', properties: null });
      expect(seedDeskToldEnough(tool)).toHaveLength(8);
    }
  });

  it('the flat schema survives: type, properties (type, description, enum), required; additionalProperties and const do not', () => {
    const tool = onlyTool(judgeRequest('ollama-openai', chatBody({ ...FLAT_SCHEMA, properties: { ...(FLAT_SCHEMA['properties'] as object), extra: { type: 'string', const: 'x', minLength: 1 } } })));
    const parameters = tool.parameters as Record<string, unknown>;
    expect(Object.keys(parameters)).toEqual(['type', 'required', 'properties']);
    expect((parameters['properties'] as Record<string, unknown>)['op']).toEqual({ type: 'string', description: 'What to do: discover, query, inspect or act.', enum: ['discover', 'query', 'inspect', 'act'] });
    expect((parameters['properties'] as Record<string, unknown>)['extra']).toEqual({ type: 'string' });
    expect(seedDeskToldEnough(tool)).toEqual([]);
  });

  it('refuses what Go cannot decode, with the server\'s message, in each API\'s error shape', () => {
    const wrong = chatBody({ ...FLAT_SCHEMA, required: 'op' });
    const message = 'json: cannot unmarshal string into Go struct field ToolFunctionParameters.tools.function.parameters.required of type []string';
    expect(refusal(judgeRequest('ollama-native', wrong))).toEqual({ status: 400, body: { error: message } });
    expect(refusal(judgeRequest('ollama-openai', wrong))).toEqual({ status: 400, body: { error: { message, type: 'invalid_request_error', param: null, code: null } } });
  });
});

describe('llama.cpp', () => {
  it('passes parameters to the template as they are: the union is accepted and told in full', () => {
    const tool = onlyTool(judgeRequest('llamacpp', chatBody(UNION_SCHEMA)));
    expect(tool.parameters).toEqual(UNION_SCHEMA);
    expect(seedDeskToldEnough(tool)).toEqual([]);
    expect(refusal(judgeRequest('llamacpp', { ...chatBody(FLAT_SCHEMA), tools: [{ type: 'retrieval' }] })).body).toMatchObject({ error: { message: 'Failed to parse tools: Unsupported tool type: {"type":"retrieval"}' } });
  });
});

describe('OpenRouter', () => {
  it('a model without tool use: its real 404 body, whatever the schema', () => {
    expect(refusal(judgeRequest('openrouter', chatBody(FLAT_SCHEMA, false), { modelSupportsTools: false }))).toEqual({
      status: 404,
      body: { error: { message: 'No endpoints found that support tool use. To learn more about provider routing, visit: https://openrouter.ai/docs/provider-routing', code: 404 } },
    });
  });

  it('an OpenAI model behind it refuses the union as OpenAI does, wrapped as a provider error; the flat schema passes', () => {
    const { status, body } = refusal(judgeRequest('openrouter', chatBody(UNION_SCHEMA, false)));
    expect(status).toBe(400);
    const raw = JSON.parse((body as { error: { metadata: { raw: string } } }).error.metadata.raw) as unknown;
    expect(raw).toMatchObject({ error: { message: expect.stringContaining('got \'type: "None"\'') as unknown } });
    expect(seedDeskToldEnough(onlyTool(judgeRequest('openrouter', chatBody(FLAT_SCHEMA, false))))).toEqual([]);
  });
});

describe('seedDeskToldEnough', () => {
  it('names each op and act field that did not survive', () => {
    const withoutRevision = { ...FLAT_SCHEMA, properties: { ...(FLAT_SCHEMA['properties'] as object), op: { type: 'string', enum: ['discover', 'query', 'act'] }, expectedRevision: undefined } };
    expect(seedDeskToldEnough({ name: 'seed_desk', parameters: JSON.parse(JSON.stringify(withoutRevision)) })).toEqual(['op "inspect"', 'act\'s field "expectedRevision"']);
    expect(seedDeskToldEnough({ name: 'seed_desk', parameters: 'nothing' })).toHaveLength(9);
  });
});
