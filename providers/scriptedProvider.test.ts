/**
 * The e2e scripted providers (`e2e/modelProvider.ts`) are as strict as the real ones: a body the
 * real provider refuses gets its real status and error body, and never reaches the script.
 */
import type { Page, Route } from '@playwright/test';
import { afterEach, describe, expect, it } from 'vitest';
import { OLLAMA, providerKindOf, scriptProvider, sseOf, startModelServer, type ChatRequest, type ModelServer } from '../e2e/modelProvider';
import { DESCRIPTION, FLAT_SCHEMA, UNION_SCHEMA } from './seedDeskSchemas.testkit';

const chatBody = (parameters: unknown) => ({
  model: 'scripted',
  stream: true,
  messages: [{ role: 'user', content: 'Reserve one packet.' }],
  tools: [{ type: 'function', function: { name: 'seed_desk', description: DESCRIPTION, parameters } }],
});

const LM_STUDIO_REFUSAL = {
  error: '[\n  {\n    "code": "invalid_union_discriminator",\n    "options": [\n      "object"\n    ],\n    "path": [\n      0,\n      "function",\n      "parameters",\n      "type"\n    ],\n    "message": "Invalid discriminator value. Expected \'object\'"\n  }\n]',
};

let server: ModelServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('the scripted model server', () => {
  it('answers a body its provider refuses with the real refusal, and gives the script only what the provider accepts', async () => {
    const scripted: ChatRequest[] = [];
    server = await startModelServer(
      (request, _index, res) => {
        scripted.push(request);
        res.end(sseOf({ text: 'ok' }));
      },
      { kind: 'lmstudio' },
    );
    const post = (body: unknown) => fetch(`${server!.baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

    const refused = await post(chatBody(UNION_SCHEMA));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual(LM_STUDIO_REFUSAL);
    expect(scripted).toHaveLength(0);

    const answered = await post(chatBody(FLAT_SCHEMA));
    expect(answered.status).toBe(200);
    expect(await answered.text()).toContain('data: [DONE]');
    expect(scripted).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });

  it('judges by OpenAI\'s rules when no provider is named', async () => {
    server = await startModelServer((_request, _index, res) => void res.end(sseOf({ text: 'never' })));
    const refused = await fetch(`${server.baseUrl}/chat/completions`, { method: 'POST', body: JSON.stringify(chatBody(UNION_SCHEMA)) });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { code: 'invalid_function_parameters', message: expect.stringContaining('got \'type: "None"\'') as unknown } });
  });
});

describe('the routed scripted provider', () => {
  /** Just enough of Playwright's page and route for `scriptProvider`'s handler. */
  async function routed(base: string, body: unknown): Promise<{ status: number; body: string; scripted: number }> {
    let handler: ((route: Route) => Promise<unknown>) | null = null;
    const page = { route: async (_url: unknown, handle: (route: Route) => Promise<unknown>) => void (handler = handle) };
    let scripted = 0;
    await scriptProvider(page as unknown as Page, () => ((scripted += 1), { text: 'ok' }), base);
    let answer = { status: 0, body: '' };
    const route = {
      request: () => ({ method: () => 'POST', url: () => `${base}/chat/completions`, postDataJSON: () => body }),
      fulfill: async (reply: { status: number; body: string }) => void (answer = { status: reply.status, body: reply.body }),
    };
    await handler!(route as unknown as Route);
    return { ...answer, scripted };
  }

  it('stands for the provider at its address: OpenAI refuses the union, Ollama takes it, and the flat schema passes both', async () => {
    expect(providerKindOf('https://api.openai.com/v1')).toBe('openai-chat');
    expect(providerKindOf(OLLAMA)).toBe('ollama-openai');
    const openai = await routed('https://api.openai.com/v1', chatBody(UNION_SCHEMA));
    expect(openai).toMatchObject({ status: 400, scripted: 0 });
    expect(JSON.parse(openai.body)).toMatchObject({ error: { param: 'tools[0].function.parameters' } });
    expect(await routed(OLLAMA, chatBody(UNION_SCHEMA))).toMatchObject({ status: 200, scripted: 1 });
    expect(await routed('https://api.openai.com/v1', chatBody(FLAT_SCHEMA))).toMatchObject({ status: 200, scripted: 1 });
  });
});
