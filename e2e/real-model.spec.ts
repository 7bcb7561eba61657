import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { ServerResponse } from 'node:http';
import { expect, test, type Locator, type Page, type Route } from '@playwright/test';
import { CORS, OLLAMA, lastRevisionSeen, routeProvider, scriptProvider, sseChunk, sseParts, startModelServer, toolMessages, type ChatRequest, type Script } from './modelProvider';
import { confirmDialog, expectDesk, grantAgent, openPlayground, openTool, run } from './support';

/**
 * Issue 30, "Ask a real model": the Real model section of the Agents tab against a scripted
 * OpenAI-compatible provider (`page.route`, or a real server on 127.0.0.1 where a stream must stay
 * open or break half-way). The model is scripted; the host, the desk and the journal are the page's own.
 */

const conversation = (page: Page) => page.getByRole('list', { name: 'Model conversation' });
const reply = (page: Page, n: number) => conversation(page).getByRole('listitem', { name: `Model reply ${n}`, exact: true });
const calls = (page: Page) => conversation(page).getByRole('group', { name: 'Tool call seed_desk' });
const modelSaw = (call: Locator) => call.getByRole('group', { name: 'What the model saw' });
const hostHas = (call: Locator) => call.getByRole('group', { name: 'What the host has' });
const endedFine = (page: Page) => page.getByRole('note', { name: 'How the request ended' });
const endedBadly = (page: Page) => page.getByRole('alert', { name: 'How the request ended' });
const connectionStatus = (page: Page) => page.getByRole('status', { name: 'Connection status' });
const checkpoint = (page: Page) => page.getByRole('status', { name: 'Checkpoint' });

interface Connection {
  readonly provider?: string;
  readonly baseUrl?: string;
  readonly model?: string;
  readonly apiKey?: string;
}

/** Opens the Real model section of the Agents tab and fills the connection form, as a learner does. */
async function setUpModel(page: Page, connection: Connection = {}): Promise<void> {
  await openTool(page, 'Agents');
  const region = page.getByRole('region', { name: 'Real model' });
  await region.getByRole('button', { name: 'Set up a real model' }).click();
  await expect(page.getByRole('form', { name: 'Model connection' })).toBeVisible();
  if (connection.provider) await page.getByLabel('Provider').selectOption({ label: connection.provider });
  if (connection.baseUrl !== undefined) await page.getByRole('textbox', { name: 'Base URL' }).fill(connection.baseUrl);
  await page.getByRole('combobox', { name: 'Model' }).fill(connection.model ?? 'scripted');
  if (connection.apiKey !== undefined) await page.getByLabel('API key').fill(connection.apiKey);
}

async function testConnection(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(connectionStatus(page)).toContainText('Connected');
}

async function ask(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Ask the model' }).click();
}

/** A page with the agent granted (`/seeds agent on`, confirmed) and a model set up against `script`. */
async function grantedWithModel(page: Page, script: Script): Promise<ChatRequest[]> {
  const requests = await scriptProvider(page, script);
  await openPlayground(page);
  await grantAgent(page);
  await setUpModel(page);
  return requests;
}

const query = { args: { op: 'query' } };
const reserve = (expectedRevision: string | null, id = 'bean-scarlet', packets: unknown = 1) => ({ args: { op: 'act', action: 'reserve', id, packets, expectedRevision } });

test('a careful scripted model queries, then reserves with the revision it read; the model is sent the text, the host keeps the details', async ({ page }) => {
  const requests = await grantedWithModel(page, (request, index) => {
    if (index === 0) return { text: 'I will look first.', calls: [query] };
    if (index === 1) return { calls: [reserve(lastRevisionSeen(request))] };
    return { text: 'Reserved one bean-scarlet.' };
  });
  await testConnection(page);
  await ask(page);
  await expect(endedFine(page)).toContainText('finished on its own after 2 tool calls');
  await expect(calls(page)).toHaveCount(2);
  await expectDesk(page, 'bean-scarlet', 4, 1);

  // The request the page sent is the one written in "Request to the model".
  expect(JSON.stringify(requests[0]?.messages.find((message) => message.role === 'user'))).toContain('Call seed_desk with {\\"op\\":\\"query\\"}');

  const [first, second] = [calls(page).nth(0), calls(page).nth(1)];
  const revision = lastRevisionSeen(requests[1]!);
  expect(revision).not.toBeNull();
  await expect(modelSaw(first)).toContainText(`revision: ${revision}`);
  await expect(modelSaw(first)).not.toContainText('"ok"');
  await expect(hostHas(first)).toContainText('"ok": true');
  await expect(hostHas(first)).toContainText('"scope": "query"');
  await expect(hostHas(first)).toContainText('decided at: domain');
  await expect(modelSaw(second)).toContainText('Reserved 1 bean-scarlet.');
  await expect(hostHas(second)).toContainText('"ok": true');
  await expect(reply(page, 3)).toContainText('Reserved one bean-scarlet.');

  // What the provider was sent for the query's result: its text only, exactly what "What the model saw" shows; never `details`.
  const tool = toolMessages(requests[1]!);
  expect(tool).toHaveLength(1);
  expect(typeof tool[0]?.content).toBe('string');
  expect(tool[0]?.content).toBe(await modelSaw(first).locator('pre').textContent());
  const sent = JSON.stringify(requests[1]!.messages);
  expect(sent).not.toContain('scope');
  expect(sent).not.toContain('agentEnabled');
  expect(sent).not.toContain('details');
  // The act carried the revision the query's text gave the model.
  expect(JSON.stringify(requests[2]?.messages)).toContain(`\\"expectedRevision\\":\\"${revision}\\"`);
  // What the provider was told about seed_desk: the schema as the extension registers it, one object whose op is a string enum.
  await page.getByText('The tools as Ollama (this computer) was sent them').click();
  await expect(page.getByRole('region', { name: 'Tools as sent' })).toContainText('"name": "seed_desk"');
  await expect(page.getByRole('region', { name: 'Tools as sent' })).toContainText('"enum": [');
});

test('the Real model section with a finished conversation passes axe (light), and its contrast in dark', async ({ page }) => {
  await grantedWithModel(page, (request, index) => {
    if (index === 0) return { text: 'Looking first.', calls: [query] };
    if (index === 1) return { calls: [reserve(lastRevisionSeen(request))] };
    return { text: 'Reserved one bean-scarlet.' };
  });
  await testConnection(page);
  await ask(page);
  await expect(endedFine(page)).toContainText('finished on its own');
  await page.getByText('The tools as Ollama (this computer) was sent them').click();
  const described = (violation: { id: string; nodes: { target: unknown }[] }) => `${violation.id}: ${violation.nodes.map((node) => JSON.stringify(node.target)).join(', ')}`;
  await page.getByRole('radio', { name: 'light' }).check();
  const light = await new AxeBuilder({ page }).include('[aria-labelledby="real-model-heading"]').analyze();
  expect(light.passes.length, 'axe ran on the section').toBeGreaterThan(0);
  expect(light.violations.map(described)).toEqual([]);
  await page.getByRole('radio', { name: 'dark' }).check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const dark = await new AxeBuilder({ page }).include('[aria-labelledby="real-model-heading"]').withRules(['color-contrast']).analyze();
  expect(dark.violations.map(described)).toEqual([]);
});

test('the desk moves while the model thinks: its act is refused stale-revision, it queries again and acts with the fresh revision', async ({ page }) => {
  let firstRevision: string | null = null;
  const requests = await grantedWithModel(page, async (request, index) => {
    if (index === 0) return { calls: [query] };
    if (index === 1) {
      // While the model "thinks", the human reserves a basil: the revision the model read is now old.
      firstRevision = lastRevisionSeen(request);
      await run(page, '/seeds reserve basil-genovese 1');
      await confirmDialog(page);
      await expectDesk(page, 'basil-genovese', 7, 1);
      return { calls: [reserve(firstRevision)] };
    }
    if (index === 2) return { text: 'Refused: the desk changed. Looking again.', calls: [query] };
    if (index === 3) return { calls: [reserve(lastRevisionSeen(request))] };
    return { text: 'Reserved one bean-scarlet on the second try.' };
  });
  await ask(page);
  await expect(endedFine(page)).toContainText('finished on its own after 4 tool calls');
  await expect(calls(page)).toHaveCount(4);

  const refused = reply(page, 2).getByRole('group', { name: 'Tool call seed_desk' });
  await expect(modelSaw(refused)).toContainText('Refused (stale-revision)');
  await expect(hostHas(refused)).toContainText('"code": "stale-revision"');
  await expect(hostHas(refused)).toContainText('decided at: domain');
  await expect(reply(page, 3)).toContainText('{"op":"query"}');
  const fresh = reply(page, 4).getByRole('group', { name: 'Tool call seed_desk' });
  await expect(modelSaw(fresh)).toContainText('Reserved 1 bean-scarlet.');
  await expect(hostHas(fresh)).toContainText('"ok": true');
  await expectDesk(page, 'bean-scarlet', 4, 1);
  await expectDesk(page, 'basil-genovese', 7, 1);

  // The second act was sent with the revision the second query returned, not the first one.
  const secondQueryRevision = lastRevisionSeen(requests[3]!);
  expect(secondQueryRevision).not.toBe(firstRevision);
  expect(JSON.stringify(requests[4]?.messages)).toContain(`\\"expectedRevision\\":\\"${secondQueryRevision}\\"`);
});

test('an invented id is refused by the domain (invalid-target) and nothing is reserved', async ({ page }) => {
  await grantedWithModel(page, (request, index) => {
    if (index === 0) return { calls: [query] };
    if (index === 1) return { calls: [reserve(lastRevisionSeen(request), 'bean-scarlett')] };
    return { text: 'There is no bean-scarlett.' };
  });
  await ask(page);
  await expect(endedFine(page)).toContainText('finished on its own after 2 tool calls');
  const act = calls(page).nth(1);
  await expect(act).toContainText('"id":"bean-scarlett"');
  await expect(modelSaw(act)).toContainText('Refused (invalid-target)');
  await expect(hostHas(act)).toContainText('"ok": false');
  await expect(hostHas(act)).toContainText('"code": "invalid-target"');
  await expect(hostHas(act)).toContainText('decided at: domain');
  await expectDesk(page, 'bean-scarlet', 5, 0);
});

test('packets sent as the string "2" is repaired by the host as the real host does, and two packets are reserved', async ({ page }) => {
  await grantedWithModel(page, (request, index) => {
    if (index === 0) return { calls: [query] };
    if (index === 1) return { calls: [reserve(lastRevisionSeen(request), 'bean-scarlet', '2')] };
    return { text: 'Reserved two.' };
  });
  await ask(page);
  await expect(endedFine(page)).toContainText('finished on its own after 2 tool calls');
  const act = calls(page).nth(1);
  // What the model sent: the string; what the host ran: the number.
  await expect(act).toContainText('"packets":"2"');
  await expect(modelSaw(act)).toContainText('Reserved 2 bean-scarlet.');
  await expect(hostHas(act)).toContainText('"ok": true');
  await expect(hostHas(act)).toContainText('"packets": 2,');
  await expect(hostHas(act)).toContainText('decided at: domain');
  await expectDesk(page, 'bean-scarlet', 3, 2);
});

test('a model\'s call goes through the host\'s approval: always-ask prompts, the model waits, a denial is the text it is sent', async ({ page }) => {
  const requests = await grantedWithModel(page, (request, index) => {
    if (index === 0) return { calls: [query] };
    if (index === 1) return { calls: [reserve(lastRevisionSeen(request))] };
    return { text: 'The host denied it, so nothing is reserved.' };
  });
  await openTool(page, 'Tool call');
  await page.getByRole('radiogroup', { name: 'Approval mode' }).getByRole('radio', { name: 'always-ask' }).check();
  await openTool(page, 'Agents');
  await ask(page);
  const prompt = page.getByRole('dialog', { name: 'Host approval: seed_desk' });
  await expect(prompt).toContainText('Allow tool: seed_desk');
  // The model waits for the learner: its first call is still running through the host.
  await expect(calls(page).first().getByRole('status')).toHaveText('Running through the host…');
  expect(requests).toHaveLength(1);
  await prompt.getByRole('button', { name: 'Approve' }).click();
  await expect(modelSaw(calls(page).first())).toContainText('revision');
  await expect(hostHas(calls(page).first())).toContainText('approval: write tier');
  await page.getByRole('dialog', { name: 'Host approval: seed_desk' }).getByRole('button', { name: 'Deny' }).click();
  await expect(endedFine(page)).toContainText('finished on its own after 2 tool calls');
  await expect(modelSaw(calls(page).nth(1))).toContainText('Tool call denied by user: seed_desk');
  await expect(hostHas(calls(page).nth(1))).toContainText('decided at: approval');
  expect(toolMessages(requests[2]!).at(-1)?.content).toBe('Tool call denied by user: seed_desk');
  await expectDesk(page, 'bean-scarlet', 5, 0);
});

test('a model that never stops calling tools is stopped at the tool call limit (8)', async ({ page }) => {
  const requests = await grantedWithModel(page, () => ({ text: 'Let me look again.', calls: [query] }));
  await expect(page.getByRole('spinbutton', { name: 'Tool call limit' })).toHaveValue('8');
  await ask(page);
  await expect(endedFine(page)).toContainText('Stopped after 8 tool calls');
  await expect(endedFine(page)).toContainText('ends a request at 8 calls');
  await expect(calls(page)).toHaveCount(8);
  await expect(conversation(page).getByRole('listitem')).toHaveCount(8);
  expect(requests).toHaveLength(8);
});

/** The session as "Export session" (Sessions tab) writes it: one JSON entry a line. */
async function exportedEntries(page: Page): Promise<{ type: string; message?: { role: string; content?: unknown; toolCallId?: string; stopReason?: string } }[]> {
  const download = page.waitForEvent('download');
  await openTool(page, 'Sessions');
  await page.getByRole('button', { name: 'Export session' }).click();
  const text = readFileSync(await (await download).path(), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { type: string });
}

test('Stop while the reply is still streaming: the request ends "Stopped", and every tool call in the journal has its result', async ({ page }) => {
  const server = await startModelServer((_request, index, res) => {
    if (index === 0) return void res.end(sseParts({ text: 'Looking first.', calls: [query] }).join(''));
    // The second reply starts to stream (text, then a tool call whose arguments never finish), and stays open.
    res.write(sseChunk({ role: 'assistant', content: '' }));
    res.write(sseChunk({ content: 'Now I reserve one bean-scarlet' }));
    res.write(sseChunk({ tool_calls: [{ index: 0, id: 'call_never_finished', type: 'function', function: { name: 'seed_desk', arguments: '' } }] }));
    res.write(sseChunk({ tool_calls: [{ index: 0, function: { arguments: '{"op":"act","action":"res' } }] }));
  });
  try {
    await openPlayground(page);
    await grantAgent(page);
    await setUpModel(page, { provider: 'Any OpenAI-compatible server', baseUrl: server.baseUrl });
    await ask(page);
    await expect(reply(page, 2)).toContainText('Now I reserve one bean-scarlet');
    await expect(page.getByRole('button', { name: 'Stop' })).toBeEnabled();
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect(endedFine(page)).toContainText('Stopped after 1 tool call');
    await expect(endedFine(page)).toContainText('every call there has its result');
    // Stop really cancelled the request: the provider saw its client hang up.
    await server.hungUp(1);
    await expect(page.getByRole('button', { name: 'Ask the model' })).toBeEnabled();
    await expectDesk(page, 'bean-scarlet', 5, 0);
    // The half-made call never ran and is not in the journal: the page says so, and leaves no call "Running through the host…".
    await expect(conversation(page).getByRole('status')).toHaveCount(0);
    await expect(calls(page)).toHaveCount(2);
    await expect(calls(page).nth(1)).toContainText('Not run: the reply was stopped while this call was arriving');

    const messages = (await exportedEntries(page)).flatMap((entry) => (entry.type === 'message' && entry.message ? [entry.message] : []));
    const callIds = messages.flatMap((message) =>
      message.role === 'assistant' && Array.isArray(message.content) ? (message.content as { type: string; id?: string }[]).filter((part) => part.type === 'toolCall').map((part) => part.id) : [],
    );
    const resultIds = messages.filter((message) => message.role === 'toolResult').map((message) => message.toolCallId);
    expect(callIds.length).toBeGreaterThan(0);
    expect(resultIds.sort()).toEqual([...callIds].sort());
    expect(callIds).not.toContain('call_never_finished');
    // What the model had said before Stop is kept, marked aborted.
    const stopped = messages.find((message) => message.role === 'assistant' && message.stopReason === 'aborted');
    expect(JSON.stringify(stopped?.content)).toContain('Now I reserve one bean-scarlet');
  } finally {
    await server.close();
  }
});

// Each failure is one sentence with its fix. `answer` is what the provider (or the network) does with each request.
const FAILURES: readonly {
  readonly name: string;
  readonly connection?: Connection;
  readonly answer: (route: Route) => Promise<void>;
  readonly says: readonly (string | RegExp)[];
  readonly saysNot?: readonly string[];
  /** A request that got no answer is followed by an opaque probe of the base URL (no server, or CORS?). */
  readonly probes?: boolean;
}[] = [
  {
    name: 'no server at the address',
    answer: (route) => route.abort('connectionrefused'),
    says: ['Is Ollama running? Start it with `ollama serve`.'],
    probes: true,
  },
  {
    name: '401: the key is not accepted',
    connection: { provider: 'OpenAI', model: 'gpt-4o-mini', apiKey: 'sk-test-secret-4242' },
    answer: (route) => fulfilJson(route, 401, { error: { message: 'Incorrect API key provided: sk-test-secret-4242.', type: 'invalid_request_error', code: 'invalid_api_key' } }),
    says: ['OpenAI did not accept the API key (401)', 'paste a valid key into "API key"'],
  },
  {
    name: '403: the key may not use this model',
    connection: { provider: 'OpenRouter', model: 'openai/gpt-4o', apiKey: 'sk-or-test-4242' },
    answer: (route) => fulfilJson(route, 403, { error: { message: 'This key is not allowed to use this model.', code: 403 } }),
    says: ['OpenRouter refused the request (403)', "check the key's permissions or pick another model"],
  },
  {
    name: 'an unknown model (Ollama 404)',
    connection: { model: 'x' },
    answer: (route) => fulfilJson(route, 404, { error: { message: 'model "x" not found, try pulling it first', type: 'api_error' } }),
    says: ['does not know the model "x"', 'press "Test connection" to list its models', '`ollama pull x`'],
  },
  {
    name: 'a model without tool support (Ollama 400)',
    connection: { model: 'gemma:2b' },
    answer: (route) => fulfilJson(route, 400, { error: { message: 'registry.ollama.ai/library/gemma:2b does not support tools', type: 'api_error' } }),
    says: ['The model "gemma:2b" does not support tool calls', 'pick a model that does'],
  },
  {
    name: 'no LM Studio server at the address',
    connection: { provider: 'LM Studio (this computer)' },
    answer: (route) => route.abort('connectionrefused'),
    says: ['Is the LM Studio server running?', '`lms server start --cors`'],
    probes: true,
  },
  // The real error bodies of a tool schema without a root object (issue 35): each sentence quotes the
  // provider and names no other provider to try (each would refuse it, or drop it, the same way).
  {
    name: 'OpenAI refuses a tool schema with no root object (its real 400)',
    connection: { provider: 'OpenAI', model: 'gpt-4o-mini', apiKey: 'sk-test-4242' },
    answer: (route) =>
      fulfilJson(route, 400, {
        error: { message: `Invalid schema for function 'seed_desk': schema must be a JSON Schema of 'type: "object"', got 'type: "None"'.`, type: 'invalid_request_error', param: 'tools[0].function.parameters', code: 'invalid_function_parameters' },
      }),
    says: [`OpenAI refused a tool's parameter schema ("schema must be a JSON Schema of 'type: "object"'"): its root must be one object ("type": "object")`, '"Back to the shipped extension"'],
    saysNot: ['local server', 'Ollama', 'LM Studio'],
  },
  {
    name: 'LM Studio refuses a tool schema with no root object (its real 400)',
    connection: { provider: 'LM Studio (this computer)' },
    answer: (route) =>
      fulfilJson(route, 400, {
        error: JSON.stringify([{ code: 'invalid_union_discriminator', options: ['object'], path: [0, 'function', 'parameters', 'type'], message: "Invalid discriminator value. Expected 'object'" }], null, 2),
      }),
    says: [`LM Studio (this computer) refused a tool's parameter schema ("invalid_union_discriminator … Expected 'object'")`, 'its root must be one object'],
    saysNot: ['local server', 'Ollama', 'OpenAI'],
  },
  {
    name: 'Anthropic refuses a root oneOf (its real 400)',
    connection: { provider: 'Anthropic', model: 'claude-sonnet-4-5', apiKey: 'sk-ant-test-4242' },
    answer: (route) => fulfilJson(route, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'tools.0.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level' } }),
    says: ['Anthropic refused a tool\'s parameter schema ("input_schema does not support oneOf, allOf, or anyOf at the top level"): its root may not be a oneOf, anyOf or allOf'],
    saysNot: ['does not support tool calls', 'local server', 'Ollama'],
  },
  {
    name: 'OpenRouter has no endpoint with tools for the model (its real 404: a model without tools, not an unknown one)',
    connection: { provider: 'OpenRouter', model: 'deepseek/deepseek-r1:free', apiKey: 'sk-or-test-4242' },
    answer: (route) => fulfilJson(route, 404, { error: { message: 'No endpoints found that support tool use. To learn more about provider routing, visit: https://openrouter.ai/docs/provider-routing', code: 404 } }),
    says: ['OpenRouter has no endpoint that serves "deepseek/deepseek-r1:free" with tool calls', 'pick a model that takes tools'],
    saysNot: ['does not know the model'],
  },
  {
    name: 'rate limited (429)',
    connection: { provider: 'OpenAI', model: 'gpt-4o-mini', apiKey: 'sk-test-4242' },
    answer: (route) => fulfilJson(route, 429, { error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } }),
    says: ['OpenAI says too many requests (429)', 'wait a minute'],
  },
];

function fulfilJson(route: Route, status: number, body: unknown): Promise<void> {
  if (route.request().method() === 'OPTIONS') return route.fulfill({ status: 204, headers: CORS });
  return route.fulfill({ status, headers: { ...CORS, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

const BASES: Readonly<Record<string, string>> = {
  OpenAI: 'https://api.openai.com/v1',
  OpenRouter: 'https://openrouter.ai/api/v1',
  Anthropic: 'https://api.anthropic.com',
  'LM Studio (this computer)': 'http://localhost:1234/v1',
};

for (const failure of FAILURES) {
  test(`a failure says what to do: ${failure.name}`, async ({ page }) => {
    const base = BASES[failure.connection?.provider ?? ''] ?? OLLAMA;
    const seen = await routeProvider(page, base, failure.answer);
    await openPlayground(page);
    await setUpModel(page, failure.connection);
    await ask(page);
    for (const words of failure.says) await expect(endedBadly(page)).toContainText(words);
    for (const words of failure.saysNot ?? []) await expect(endedBadly(page)).not.toContainText(words);
    expect(seen.some((line) => line.includes('/chat/completions') || line.includes('/v1/messages'))).toBe(true);
    // One request, no retry (maxRetries 0).
    expect(seen.filter((line) => line.startsWith('POST'))).toHaveLength(1);
    expect(seen.includes(`GET ${base}`)).toBe(failure.probes === true);
    if (failure.connection?.apiKey) await expect(endedBadly(page)).not.toContainText(failure.connection.apiKey);
  });
}

// page.route cannot show this one: Playwright adds CORS headers to every answer it fulfils (and
// answers preflights itself), so the browser never refuses a routed call. A real server does not.
// This page is on 127.0.0.1, an origin Ollama allows by itself: a refusal here is not Ollama's
// missing OLLAMA_ORIGINS (that is for a copy served from elsewhere: e2e/model-panel.spec.ts).
test('a failure says what to do: the browser refuses the cross-origin call from a page on this computer (not Ollama\'s doing)', async ({ page }) => {
  const server = await startModelServer((_request, _index, res) => void res.end(sseParts({ text: 'This answer must not be read.' }).join('')), { cors: false });
  try {
    await openPlayground(page);
    await setUpModel(page, { baseUrl: server.baseUrl });
    await ask(page);
    await expect(endedBadly(page)).toHaveText(
      "Something at this address refused this page's origin, though Ollama itself accepts any page on localhost or 127.0.0.1: check that it is Ollama listening there, not another server or a proxy in front of it.",
    );
    // The browser stopped at the preflight: no chat request reached the server.
    expect(server.requests).toHaveLength(0);
  } finally {
    await server.close();
  }
});

test('a failure says what to do: the stream is cut in the middle', async ({ page }) => {
  // The first chunks go out; the connection breaks once the page shows them (not before: a socket
  // destroyed at once may drop what was still buffered, and the test would not know what arrived).
  let streaming: (res: ServerResponse) => void = () => {};
  const open = new Promise<ServerResponse>((resolve) => (streaming = resolve));
  const server = await startModelServer((_request, _index, res) => {
    res.write(sseChunk({ role: 'assistant', content: '' }));
    res.write(sseChunk({ content: 'I will look at the desk' }));
    res.write(sseChunk({ tool_calls: [{ index: 0, id: 'call_cut', type: 'function', function: { name: 'seed_desk', arguments: '{"op":"qu' } }] }));
    streaming(res);
  });
  try {
    await openPlayground(page);
    await setUpModel(page, { provider: 'Any OpenAI-compatible server', baseUrl: server.baseUrl });
    await ask(page);
    await expect(reply(page, 1)).toContainText('I will look at the desk');
    (await open).socket?.destroy();
    await expect(endedBadly(page)).toContainText('The answer stopped in the middle of the stream (the connection closed)');
    await expect(endedBadly(page)).toContainText('"Ask the model" starts the request again');
    // What arrived is kept, on the page and in the journal, without the half-made call.
    await expect(reply(page, 1)).toContainText('I will look at the desk');
    await expect(calls(page)).toHaveCount(0);
    expect(server.requests).toHaveLength(1);
    const messages = (await exportedEntries(page)).flatMap((entry) => (entry.type === 'message' && entry.message ? [entry.message] : []));
    const cut = messages.find((message) => message.role === 'assistant' && message.stopReason === 'error');
    expect(JSON.stringify(cut?.content)).toContain('I will look at the desk');
    expect(JSON.stringify(messages)).not.toContain('call_cut');
  } finally {
    await server.close();
  }
});

test('a base URL off this computer and off the three hosted providers is refused before anything is sent', async ({ page }) => {
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith('https://example.com')) sent.push(request.url());
  });
  const routed = await routeProvider(page, 'https://example.com/v1', (route) => route.fulfill({ status: 200, headers: CORS, body: '{}' }));
  await openPlayground(page);
  await setUpModel(page, { provider: 'Any OpenAI-compatible server', baseUrl: 'https://example.com/v1' });
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByRole('form', { name: 'Model connection' }).getByRole('status', { name: 'Connection status' })).toContainText(
    'This page may only call a model on this computer (localhost or 127.0.0.1, any port) or at OpenAI, Anthropic or OpenRouter',
  );
  await ask(page);
  await expect(endedBadly(page)).toContainText('localhost or 127.0.0.1');
  await expect(endedBadly(page)).toContainText('"https://example.com/v1" is neither');
  expect(routed).toEqual([]);
  expect(sent).toEqual([]);
});

const LESSON_STEP = '/#/lesson/2/step/10';

test('the lesson step without a model: the careful scripted agent plays it and the step ticks', async ({ page }) => {
  await openPlayground(page);
  await grantAgent(page);
  await page.goto(LESSON_STEP);
  await expect(page.getByRole('heading', { name: /^Step 10: Ask for the whole sequence/ })).toBeVisible();
  const offer = page.getByRole('region', { name: 'With a real model' });
  await expect(offer).toContainText('No model is connected, so the careful scripted agent plays this step');
  await expect(offer).toContainText('open "Real model" in the Agents tab');
  await expect(offer.getByRole('button', { name: 'Ask a real model' })).toHaveCount(0);
  await expect(checkpoint(page)).toContainText('Not yet');
  await openTool(page, 'Agents');
  await page.getByRole('combobox', { name: 'Scripted agent' }).selectOption('careful');
  await page.getByRole('button', { name: 'Run to end' }).click();
  await expect(checkpoint(page)).toHaveText('✓ Checkpoint reached.');
  await expectDesk(page, 'bean-scarlet', 4, 1);
});

test('the lesson step with a model connected: "Ask a real model" runs the request in the Agents tab and a careful model ticks the step', async ({ page }) => {
  const requests = await grantedWithModel(page, (request, index) => {
    if (index === 0) return { calls: [query] };
    if (index === 1) return { calls: [reserve(lastRevisionSeen(request))] };
    return { text: 'Reserved one bean-scarlet.' };
  });
  await testConnection(page);
  await page.goto(LESSON_STEP);
  await expect(page.getByRole('heading', { name: /^Step 10: Ask for the whole sequence/ })).toBeVisible();
  await expect(checkpoint(page)).toContainText('Not yet');
  await openTool(page, 'Journal');
  const offer = page.getByRole('region', { name: 'With a real model' });
  await expect(offer).toContainText('Your model is connected');
  await offer.getByRole('button', { name: 'Ask a real model' }).click();
  await expect(page.getByRole('tablist', { name: 'Tools' }).getByRole('tab', { name: 'Agents', exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(endedFine(page)).toContainText('finished on its own after 2 tool calls');
  await expect(checkpoint(page)).toHaveText('✓ Checkpoint reached.');
  await expectDesk(page, 'bean-scarlet', 4, 1);
  expect(requests).toHaveLength(3);
});
