import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page, type Route } from '@playwright/test';
import { anthropicSse, CORS, OLLAMA, providerKindOf, refusalOf, routeProvider, scriptProvider, sseChunk, sseOf, startModelServer, type ChatRequest, type ScriptedReply } from './modelProvider';
import { expectDesk, grantAgent, openPlayground, openTool } from './support';

/**
 * Issue 35, point 6, and issue 36's two Real model sentences: what the panel tells the learner is
 * what happens. Each test drives the page as a person does (roles and names, typing with the
 * keyboard) against a scripted provider that streams as the real one does.
 */

const form = (page: Page) => page.getByRole('form', { name: 'Model connection' });
const conversation = (page: Page) => page.getByRole('list', { name: 'Model conversation' });
const reply = (page: Page, n: number) => conversation(page).getByRole('listitem', { name: `Model reply ${n}`, exact: true });
const endedFine = (page: Page) => page.getByRole('note', { name: 'How the request ended' });
const endedBadly = (page: Page) => page.getByRole('alert', { name: 'How the request ended' });
const keyField = (page: Page) => page.getByLabel('API key');
const charges = (page: Page) => form(page).getByRole('note', { name: 'Charges' });

/** Empties a field and types the text, key by key, as a person does. */
async function typeInto(field: Locator, text: string): Promise<void> {
  await field.click();
  await field.press('ControlOrMeta+a');
  await field.press('Backspace');
  await field.pressSequentially(text);
}

async function openModel(page: Page, provider?: string): Promise<void> {
  await openTool(page, 'Agents');
  await page.getByRole('region', { name: 'Real model' }).getByRole('button', { name: 'Set up a real model' }).click();
  await expect(form(page)).toBeVisible();
  if (provider) await page.getByLabel('Provider').selectOption({ label: provider });
}

async function ask(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Ask the model' }).click();
}

/** The session as "Export session" writes it: its message entries. */
async function exportedMessages(page: Page): Promise<{ role: string; content?: unknown; stopReason?: string }[]> {
  const download = page.waitForEvent('download');
  await openTool(page, 'Sessions');
  await page.getByRole('button', { name: 'Export session' }).click();
  return readFileSync(await (await download).path(), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { type: string; message?: { role: string } })
    .flatMap((entry) => (entry.type === 'message' && entry.message ? [entry.message] : []));
}

/** A hosted provider's OpenAI-shaped API, scripted: its model list, and each chat request answered by `replies` in turn. */
async function scriptHosted(page: Page, base: string, models: readonly string[], replies: readonly ScriptedReply[]) {
  const chats: Record<string, unknown>[] = [];
  await page.route(`${base}/**`, async (route: Route) => {
    const request = route.request();
    const headers = await request.allHeaders();
    if (request.method() === 'OPTIONS') return route.fulfill({ status: 204, headers: { ...CORS, 'access-control-allow-headers': headers['access-control-request-headers'] ?? '*' } });
    if (request.url().endsWith('/models')) return route.fulfill({ status: 200, headers: { ...CORS, 'content-type': 'application/json' }, body: JSON.stringify({ object: 'list', data: models.map((id) => ({ id, object: 'model' })) }) });
    const body = request.postDataJSON() as Record<string, unknown>;
    // As strict as the real provider: a body it would refuse gets its real answer, not the script.
    const refusal = refusalOf(providerKindOf(base), body);
    if (refusal) return route.fulfill({ status: refusal.status, headers: { ...CORS, 'content-type': 'application/json' }, body: refusal.body });
    chats.push(body);
    return route.fulfill({ status: 200, headers: { ...CORS, 'content-type': 'text/event-stream' }, body: sseOf(replies[chats.length - 1] ?? { text: 'No more script.' }, String(body['model'])) });
  });
  return chats;
}

test('a reasoning model\'s thinking shows while it streams, folded, and the answer follows it', async ({ page }) => {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const thinking = 'The user wants the desk first. A query costs nothing, so I will look before I do anything. '.repeat(3);
  // Ollama streams a reasoning model's thoughts in `reasoning`; the answer waits while it thinks.
  const server = await startModelServer(async (_request, _index, res) => {
    res.write(sseChunk({ role: 'assistant', content: '' }));
    for (const piece of thinking.match(/.{1,20}/gs) ?? []) res.write(sseChunk({ reasoning: piece }));
    await released;
    res.write(sseChunk({ content: 'I looked: nothing to do yet.' }));
    res.write(sseChunk({}, 'stop'));
    res.end('data: [DONE]\n\n');
  });
  try {
    await openPlayground(page);
    await openModel(page, 'Any OpenAI-compatible server');
    await typeInto(page.getByRole('textbox', { name: 'Base URL' }), server.baseUrl);
    await typeInto(page.getByRole('combobox', { name: 'Model' }), 'scripted');
    await ask(page);
    const thought = reply(page, 1).getByRole('group', { name: 'Model thinking' });
    await expect(thought).toContainText(`Thinking… (${thinking.length} characters so far)`);
    // Folded: the summary shows the think is alive; the thoughts themselves open on a click.
    await expect(thought).toHaveJSProperty('open', false);
    await expect(page.getByRole('button', { name: 'Ask the model' })).toBeDisabled();
    await thought.getByText('Thinking…').click();
    await expect(thought.locator('pre')).toHaveText(thinking);
    release();
    await expect(endedFine(page)).toContainText('finished on its own after 0 tool calls');
    await expect(thought).toContainText(`Thought (${thinking.length} characters)`);
    await expect(reply(page, 1)).toContainText('I looked: nothing to do yet.');
    // The thinking is kept with the reply in the journal, as the host records a message's thinking.
    const assistant = (await exportedMessages(page)).find((message) => message.role === 'assistant');
    expect(assistant?.content).toEqual([
      { type: 'thinking', thinking },
      { type: 'text', text: 'I looked: nothing to do yet.' },
    ]);
  } finally {
    release();
    await server.close();
  }
});

test('a reply cut at the reply token limit is its own ending: its half-written call is not run nor recorded, and the limit is what the provider was sent', async ({ page }) => {
  const requests = await scriptProvider(page, (_request, index) =>
    index === 0
      ? // llama.cpp's and LM Studio's field for the thoughts (the other test streams Ollama's `reasoning`).
        { thinking: 'One packet, then stop.', reasoningField: 'reasoning_content', text: 'Reserving one now.', calls: [{ args: { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: 'r' } }], endsFor: 'length' }
      : { text: 'Short answer.' },
  );
  await openPlayground(page);
  await grantAgent(page);
  await openModel(page);
  await typeInto(page.getByRole('combobox', { name: 'Model' }), 'scripted');
  await expect(page.getByRole('spinbutton', { name: 'Reply token limit' })).toHaveValue('4096');
  await ask(page);
  await expect(endedFine(page)).toHaveText(
    'The reply reached the reply token limit (4096 tokens) before it finished, after 0 tool calls: the tool call it was writing was not run, and what it had written is in the journal; raise "Reply token limit" or ask for less, then ask again.',
  );
  await expect(reply(page, 1).getByRole('group', { name: 'Model thinking' })).toContainText('Thought (22 characters)');
  const call = reply(page, 1).getByRole('group', { name: 'Tool call seed_desk' });
  await expect(call).toContainText('Not run: the reply reached its token limit while this call was being written');
  await expect(conversation(page).getByRole('status')).toHaveCount(0);
  // One request: the model was not asked again; the cap went in the body as Ollama reads it.
  expect(requests).toHaveLength(1);
  const body = requests[0] as ChatRequest & Record<string, unknown>;
  expect(body['max_tokens']).toBe(4096);
  expect(body).not.toHaveProperty('max_completion_tokens');
  await expectDesk(page, 'bean-scarlet', 5, 0);
  const messages = await exportedMessages(page);
  expect(messages.filter((message) => message.role === 'toolResult')).toEqual([]);
  const cut = messages.find((message) => message.role === 'assistant');
  expect(cut?.stopReason).toBe('length');
  expect(JSON.stringify(cut?.content)).toContain('Reserving one now.');
  expect(JSON.stringify(cut?.content)).not.toContain('toolCall');

  // The learner raises nothing but lowers the cap: the next request carries what was typed.
  await openTool(page, 'Agents');
  await typeInto(page.getByRole('spinbutton', { name: 'Reply token limit' }), '512');
  await ask(page);
  await expect(endedFine(page)).toContainText('finished on its own');
  expect((requests[1] as ChatRequest & Record<string, unknown>)['max_tokens']).toBe(512);
});

test('"The tools as … was sent them" says it is the request body, and that a server may tell its model less', async ({ page }) => {
  await scriptProvider(page, () => ({ text: 'Nothing to do.' }));
  await openPlayground(page);
  await openModel(page);
  await typeInto(page.getByRole('combobox', { name: 'Model' }), 'scripted');
  await ask(page);
  await expect(endedFine(page)).toContainText('finished on its own');
  await page.getByText('The tools as Ollama (this computer) was sent them').click();
  const note = page.getByText(/The tools of the request body pi-ai sent to this address/);
  await expect(note).toBeVisible();
  await expect(note).toContainText('The model may be told less');
  await expect(note).toContainText("Ollama keeps only a schema's type, properties and required");
});

test('hosted providers: the panel says a request may incur charges, "Test connection" leaves the model to the learner, and OpenAI gets its own token field', async ({ page }) => {
  const chats = await scriptHosted(page, 'https://api.openai.com/v1', ['dall-e-3', 'gpt-4o-mini'], [{ text: 'Hello from a scripted OpenAI.' }]);
  await openPlayground(page);
  await openModel(page);
  await expect(charges(page)).toHaveCount(0);
  for (const provider of ['Anthropic', 'OpenRouter', 'OpenAI']) {
    await page.getByLabel('Provider').selectOption({ label: provider });
    await expect(charges(page)).toContainText(`${provider} bills each model request to the account behind the key, so asking may incur charges`);
  }
  await keyField(page).pressSequentially('sk-test-hosted-1234');
  await page.getByRole('button', { name: 'Test connection' }).click();
  const status = page.getByRole('status', { name: 'Connection status' });
  await expect(status).toContainText('Connected: 2 models at this address (dall-e-3, gpt-4o-mini); pick one in "Model"');
  // Not the first model listed (here an image model): the field stays empty until the learner picks.
  await expect(page.getByRole('combobox', { name: 'Model' })).toHaveValue('');
  await ask(page);
  await expect(endedBadly(page)).toContainText('Name a model first');
  expect(chats).toEqual([]);
  await typeInto(page.getByRole('combobox', { name: 'Model' }), 'gpt-4o-mini');
  await ask(page);
  await expect(endedFine(page)).toContainText('finished on its own');
  expect(chats[0]?.['max_completion_tokens']).toBe(4096);
  expect(chats[0]).not.toHaveProperty('max_tokens');
  // Back on this computer: no charges, and "Test connection" fills in the first installed model.
  await scriptProvider(page, () => ({ text: 'ok' }), OLLAMA, ['qwen3', 'llama3.1']);
  await page.getByLabel('Provider').selectOption({ label: 'Ollama (this computer)' });
  await expect(charges(page)).toHaveCount(0);
  const modelField = page.getByRole('combobox', { name: 'Model' });
  await modelField.click();
  await modelField.press('ControlOrMeta+a');
  await modelField.press('Backspace');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(status).toHaveText('Connected: 2 models at this address (qwen3, llama3.1).');
  await expect(page.getByRole('combobox', { name: 'Model' })).toHaveValue('qwen3');
});

test('the key belongs to the address it was typed for: the same origin keeps it, another origin empties it, and the panel names where it goes', async ({ page }) => {
  const reached = await routeProvider(page, 'https://openrouter.ai/api/v1', (route) => route.fulfill({ status: 500, headers: CORS, body: '{}' }));
  await openPlayground(page);
  await openModel(page, 'OpenAI');
  const baseUrl = page.getByRole('textbox', { name: 'Base URL' });
  await keyField(page).pressSequentially('sk-test-origin-5678');
  await expect(form(page)).toContainText("it is sent only to the Base URL's address (https://api.openai.com)");
  await expect(form(page)).not.toContainText('it goes to OpenAI only');
  // Another path on the same origin: the key stays.
  await baseUrl.click();
  await baseUrl.press('End');
  await baseUrl.pressSequentially('/');
  await expect(keyField(page)).toHaveValue('sk-test-origin-5678');
  // Another origin, typed over the old one: the key is emptied, and the page says why.
  await typeInto(baseUrl, 'https://openrouter.ai/api/v1');
  await expect(keyField(page)).toHaveValue('');
  await expect(form(page).getByRole('status', { name: 'Key notice' })).toHaveText(
    'The API key field was emptied: it was typed for https://api.openai.com, and the Base URL now points elsewhere, so paste the key for this address.',
  );
  await expect(form(page)).toContainText("it is sent only to the Base URL's address (https://openrouter.ai)");
  await typeInto(page.getByRole('combobox', { name: 'Model' }), 'openai/gpt-4o');
  await ask(page);
  await expect(endedBadly(page)).toContainText('needs an API key');
  expect(reached).toEqual([]);
  // A key typed now belongs to the new address: the notice goes.
  await keyField(page).pressSequentially('sk-or-test-9');
  await expect(form(page).getByRole('status', { name: 'Key notice' })).toHaveCount(0);
});

test('an error result, as each API tells the model: an OpenAI-compatible tool message has no error flag, Anthropic\'s tool_result has is_error', async ({ page }) => {
  const requests = await scriptProvider(page, (_request, index) => (index === 0 ? { calls: [{ args: { op: 'dance' } }] } : { text: 'That op does not exist.' }));
  const anthropic: Record<string, unknown>[] = [];
  await page.route('https://api.anthropic.com/**', async (route) => {
    if (route.request().method() === 'OPTIONS') return route.fulfill({ status: 204, headers: { ...CORS, 'access-control-allow-headers': '*' } });
    const body = route.request().postDataJSON() as Record<string, unknown>;
    const refusal = refusalOf('anthropic', body);
    if (refusal) return route.fulfill({ status: refusal.status, headers: { ...CORS, 'content-type': 'application/json' }, body: refusal.body });
    anthropic.push(body);
    const scripted: ScriptedReply = anthropic.length === 1 ? { calls: [{ args: { op: 'dance' } }] } : { text: 'That op does not exist.' };
    return route.fulfill({ status: 200, headers: { ...CORS, 'content-type': 'text/event-stream' }, body: anthropicSse(scripted, String(body['model'])) });
  });
  await openPlayground(page);
  await openModel(page);
  await typeInto(page.getByRole('combobox', { name: 'Model' }), 'scripted');
  await ask(page);
  await expect(endedFine(page)).toContainText('finished on its own after 1 tool call');
  const saw = reply(page, 1).getByRole('group', { name: 'What the model saw' });
  await expect(saw).toContainText('the host counts this as an error, but an OpenAI-compatible tool message has no error flag: the model was sent this text only');
  await expect(saw).not.toContainText('sent as an error result');
  const toolMessage = requests[1]?.messages.find((message) => message.role === 'tool');
  expect(toolMessage && Object.keys(toolMessage).sort()).toEqual(['content', 'role', 'tool_call_id']);

  await page.getByLabel('Provider').selectOption({ label: 'Anthropic' });
  await keyField(page).pressSequentially('sk-ant-test-1234');
  await typeInto(page.getByRole('combobox', { name: 'Model' }), 'claude-scripted');
  await ask(page);
  await expect(endedFine(page)).toContainText('finished on its own after 1 tool call');
  await expect(reply(page, 1).getByRole('group', { name: 'What the model saw' })).toContainText('sent as an error result (the tool_result carried is_error: true)');
  const messages = anthropic[1]?.['messages'] as { role: string; content: { type: string; is_error?: boolean }[] }[];
  expect(messages.flatMap((message) => (Array.isArray(message.content) ? message.content : [])).find((part) => part.type === 'tool_result')?.is_error).toBe(true);
  expect(anthropic[0]?.['max_tokens']).toBe(4096);
});

test.describe('a copy of the page served over https from elsewhere', () => {
  // Workbox's service worker is not what this checks, and the routed origin has no certificate for it to install under.
  test.use({ serviceWorkers: 'block' });

  test('a request to this computer that gets no answer names Chrome\'s "Local network access" and OLLAMA_ORIGINS for that origin, not "Is Ollama running?"', async ({ page, baseURL }) => {
    const ORIGIN = 'https://seed-desk.example.org';
    // The page itself, served from the preview under a non-loopback https origin.
    await page.context().route(`${ORIGIN}/**`, async (route) => {
      const url = new URL(route.request().url());
      const response = await route.fetch({ url: `${baseURL}${url.pathname}${url.search}` });
      await route.fulfill({ response });
    });
    // Chrome refuses a page from elsewhere the loopback address until the learner allows it: the chat request and the probe both fail.
    const seen = await routeProvider(page, OLLAMA, (route) => route.abort('blockedbyclient'));
    await page.goto(`${ORIGIN}/`);
    await expect(page.getByRole('table', { name: 'Seed desk' })).toBeVisible();
    await openModel(page);
    await typeInto(page.getByRole('combobox', { name: 'Model' }), 'qwen3');
    await ask(page);
    await expect(endedBadly(page)).toHaveText(
      `Nothing answered on this computer, and this page comes from ${ORIGIN}, not from it: Chrome asks for "Local network access" before such a page may reach localhost, so allow it for this site (the icon at the left of the address bar), and start the server so it accepts this origin (\`OLLAMA_ORIGINS=${ORIGIN} ollama serve\`).`,
    );
    expect(seen).toContain(`GET ${OLLAMA}`);
  });
});
