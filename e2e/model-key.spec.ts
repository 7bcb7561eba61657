import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { sseOf, type ChatRequest, type ScriptedReply } from './modelProvider';
import { openPlayground, openTool } from './support';

// The key is searched for in the service worker's caches too, so the worker runs here (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/**
 * Issue 30: the learner's API key goes to the provider, in the Authorization header, and nowhere
 * else: not the journal's export, IndexedDB, a share link, Web Storage (unless "Remember on this
 * device"), Cache Storage, the console, or any text on the page but the password field itself.
 */

const KEY = 'sk-test-KEY-must-not-leak-123';
const BASE = 'https://api.openai.com/v1';
const MODEL = 'gpt-scripted';
const FINAL = 'The desk answered; I reserved nothing.';
const REMEMBERED = 'seed-desk.model';

interface Seen {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | null;
}

/** The OpenAI API, scripted: CORS preflights, the model list, and a streamed chat (a query, then a final text). */
async function scriptedOpenAI(page: Page, replies: readonly ScriptedReply[]) {
  const seen: Seen[] = [];
  const chats: ChatRequest[] = [];
  await page.route(`${BASE}/**`, async (route) => {
    const request = route.request();
    const headers = await request.allHeaders();
    const path = new URL(request.url()).pathname;
    seen.push({ method: request.method(), path, authorization: headers['authorization'] ?? null });
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, POST, OPTIONS' };
    if (request.method() === 'OPTIONS') {
      // `*` does not cover Authorization: name the headers the preflight asked for.
      return route.fulfill({ status: 204, headers: { ...cors, 'access-control-allow-headers': headers['access-control-request-headers'] ?? '*', 'access-control-max-age': '0' } });
    }
    if (path.endsWith('/models')) {
      return route.fulfill({ status: 200, headers: { ...cors, 'content-type': 'application/json' }, body: JSON.stringify({ object: 'list', data: [{ id: MODEL, object: 'model' }] }) });
    }
    const body = request.postDataJSON() as ChatRequest;
    chats.push(body);
    const reply = replies[chats.length - 1] ?? { text: 'No more script.' };
    return route.fulfill({ status: 200, headers: { ...cors, 'content-type': 'text/event-stream' }, body: sseOf(reply, body.model) });
  });
  return { seen, chats };
}

/** Every object store of every IndexedDB database of the origin, every key and value as text (Blobs read, bytes decoded). */
function dumpIndexedDb(page: Page) {
  return page.evaluate(async () => {
    const done = <T,>(request: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const asText = async (value: unknown): Promise<string> => {
      if (value instanceof Blob) return value.text();
      if (value instanceof ArrayBuffer) return new TextDecoder().decode(value);
      if (ArrayBuffer.isView(value)) return new TextDecoder().decode(value);
      if (Array.isArray(value)) return `[${(await Promise.all(value.map(asText))).join(',')}]`;
      if (value instanceof Date) return value.toISOString();
      if (typeof value === 'object' && value !== null) {
        const parts = await Promise.all(Object.entries(value).map(async ([name, inner]) => `${name}:${await asText(inner)}`));
        return `{${parts.join(',')}}`;
      }
      return JSON.stringify(value) ?? String(value);
    };
    const out: string[] = [];
    const stores: string[] = [];
    let records = 0;
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const db = await done(indexedDB.open(info.name));
      try {
        for (const name of Array.from(db.objectStoreNames)) {
          const store = db.transaction(name, 'readonly').objectStore(name);
          const [keys, values] = await Promise.all([done(store.getAllKeys()), done(store.getAll())]);
          records += values.length;
          stores.push(`${info.name}/${name}`);
          out.push(`${info.name}/${name} ${await asText(keys)} ${await asText(values)}`);
        }
      } finally {
        db.close();
      }
    }
    return { stores, records, text: out.join('\n') };
  });
}

/** Every Cache Storage entry: where the key appears (request URL, request headers, response text). */
function searchCaches(page: Page, key: string) {
  return page.evaluate(async (key) => {
    // Workbox's precache is filled once the service worker is active.
    await navigator.serviceWorker.ready;
    const hits: string[] = [];
    let entries = 0;
    for (const name of await caches.keys()) {
      if (name.includes(key)) hits.push(`cache name ${name}`);
      const cache = await caches.open(name);
      for (const request of await cache.keys()) {
        entries += 1;
        if (request.url.includes(key)) hits.push(`url ${request.url}`);
        for (const [header, value] of request.headers) if (value.includes(key)) hits.push(`request header ${header} of ${request.url}`);
        const response = await cache.match(request);
        if (!response) continue;
        for (const [header, value] of response.headers) if (value.includes(key)) hits.push(`response header ${header} of ${request.url}`);
        if ((await response.text()).includes(key)) hits.push(`body of ${request.url}`);
      }
    }
    return { hits, entries };
  }, key);
}

function webStorage(page: Page) {
  return page.evaluate(() => ({ local: Object.entries(localStorage), session: Object.entries(sessionStorage) }));
}

test('the API key goes to the provider only: no export, IndexedDB, share link, storage, cache, console or page text holds it', async ({ page }) => {
  const console: string[] = [];
  page.on('console', (message) => console.push(`${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => console.push(`pageerror: ${error.name}: ${error.message}\n${error.stack ?? ''}`));
  page.on('worker', (worker) => worker.on('console', (message) => console.push(`worker ${message.type()}: ${message.text()}`)));
  const { seen, chats } = await scriptedOpenAI(page, [{ text: 'I will look first.', calls: [{ args: { op: 'query' } }] }, { text: FINAL }]);

  // ---- set up OpenAI with the key, test the connection, ask ----
  await openPlayground(page);
  await openTool(page, 'Agents');
  await page.getByRole('region', { name: 'Real model' }).getByRole('button', { name: 'Set up a real model' }).click();
  await expect(page.getByRole('form', { name: 'Model connection' })).toBeVisible();
  await page.getByLabel('Provider').selectOption({ label: 'OpenAI' });
  await expect(page.getByRole('textbox', { name: 'Base URL' })).toHaveValue(BASE);
  await page.getByRole('combobox', { name: 'Model' }).fill(MODEL);
  const keyField = page.getByLabel('API key');
  await expect(keyField).toHaveAttribute('type', 'password');
  await keyField.pressSequentially(KEY);
  await expect(keyField).toHaveValue(KEY);
  const remember = page.getByRole('checkbox', { name: 'Remember on this device' });
  await expect(remember).not.toBeChecked();

  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByRole('status', { name: 'Connection status' })).toContainText('Connected: 1 model');
  await page.getByRole('button', { name: 'Ask the model' }).click();
  await expect(page.getByRole('note', { name: 'How the request ended' })).toContainText('finished on its own after 1 tool call');
  await expect(page.getByRole('list', { name: 'Model conversation' })).toContainText(FINAL);

  // ---- the key went to the provider, in the Authorization header of every call ----
  const calls = seen.filter((request) => request.method !== 'OPTIONS');
  expect(calls.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /v1/models', 'POST /v1/chat/completions', 'POST /v1/chat/completions']);
  for (const request of calls) expect(request.authorization, `${request.method} ${request.path}`).toBe(`Bearer ${KEY}`);
  expect(chats).toHaveLength(2);
  expect(chats[1]!.messages.map((message) => message.role)).toContain('tool');
  expect(JSON.stringify(chats)).not.toContain(KEY);

  // ---- no text on the page but the password field's value ----
  const onPage = await page.evaluate((key) => {
    const fields = Array.from(document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>('input, textarea, select'));
    return {
      text: document.body.innerText.includes(key),
      html: document.documentElement.outerHTML.includes(key),
      title: document.title.includes(key),
      address: location.href.includes(key),
      fieldsWithKey: fields.filter((field) => field.value.includes(key)).map((field) => `${field.tagName.toLowerCase()} ${field.getAttribute('type') ?? ''}`.trim()),
    };
  }, KEY);
  expect(onPage).toEqual({ text: false, html: false, title: false, address: false, fieldsWithKey: ['input password'] });
  await expect(page.getByText(KEY)).toHaveCount(0);

  // ---- Web Storage, while "Remember on this device" is off ----
  const stored = await webStorage(page);
  expect(JSON.stringify(stored)).not.toContain(KEY);
  expect(stored.local.map(([name]) => name)).not.toContain(REMEMBERED);

  // ---- IndexedDB: every store of every database ----
  const idb = await dumpIndexedDb(page);
  expect(idb.records).toBeGreaterThan(0);
  // The dump holds the model's turn (so it reads the journal), and not the key.
  expect(idb.text).toContain(FINAL);
  expect(idb.text).not.toContain(KEY);

  // ---- the session export ----
  const download = page.waitForEvent('download');
  await openTool(page, 'Sessions');
  await page.getByRole('button', { name: 'Export session' }).click();
  const exported = readFileSync(await (await download).path(), 'utf8');
  expect(exported).toContain(FINAL);
  expect(exported).toContain('"role":"toolResult"');
  expect(exported).toContain(`"model":"${MODEL}"`);
  expect(exported).not.toContain(KEY);

  // ---- the share link (the session deflated into the address) ----
  await page.getByRole('button', { name: 'Share this scenario as a link' }).click();
  await openTool(page, 'Sessions');
  const link = await page.getByRole('textbox', { name: 'Share link' }).inputValue();
  expect(link).toContain('#/share/');
  expect(link).not.toContain(KEY);
  const shared = inflateRawSync(Buffer.from(link.slice(link.indexOf('#/share/') + '#/share/'.length), 'base64url')).toString('utf8');
  expect(shared).toContain(FINAL);
  expect(shared).not.toContain(KEY);

  // ---- Cache Storage: every cache, every entry ----
  const cached = await searchCaches(page, KEY);
  expect(cached.entries).toBeGreaterThan(0);
  expect(cached.hits).toEqual([]);

  // ---- the console, page errors included ----
  expect(console.filter((line) => line.includes(KEY))).toEqual([]);

  // ---- "Remember on this device" stores it; "Forget" takes it away ----
  await openTool(page, 'Agents');
  await expect(page.getByLabel('API key')).toHaveValue(KEY);
  await remember.check();
  await expect(remember).toBeChecked();
  const remembered = await page.evaluate((name) => localStorage.getItem(name), REMEMBERED);
  expect(JSON.parse(remembered ?? 'null')).toEqual({ preset: 'openai', baseUrl: BASE, model: MODEL, apiKey: KEY });
  await page.getByRole('button', { name: 'Forget' }).click();
  await expect(page.getByRole('button', { name: 'Forget' })).toHaveCount(0);
  await expect(remember).not.toBeChecked();
  await expect(page.getByLabel('API key')).toHaveValue('');
  const after = await webStorage(page);
  expect(after.local.map(([name]) => name)).not.toContain(REMEMBERED);
  expect(JSON.stringify(after)).not.toContain(KEY);
  expect(console.filter((line) => line.includes(KEY))).toEqual([]);
});
