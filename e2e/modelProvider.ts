import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page, Route } from '@playwright/test';
import { judgeRequest, type ProviderKind } from '../providers';

/**
 * A scripted model provider for the Real model tests: `page.route` answers the OpenAI-compatible
 * API as a server streams it (`text/event-stream`, one `data:` line per chunk, `[DONE]` at the end),
 * and each reply is chosen by a script from the request the page sent (its messages, so a script
 * can read the revision a tool result carried, as a model would).
 *
 * `page.route` answers a request whole: for what it cannot do (a stream that is still coming when
 * the learner presses Stop, a connection that breaks half-way), `startModelServer` is a real HTTP
 * server on 127.0.0.1 (the page's CSP allows `http://127.0.0.1:*`) whose handler writes the body
 * chunk by chunk and may keep it open or cut it.
 */

export interface ChatMessage {
  readonly role: string;
  readonly content?: unknown;
  readonly tool_calls?: readonly { readonly id: string; readonly function: { readonly name: string; readonly arguments: string } }[];
  readonly tool_call_id?: string;
}

export interface ChatRequest {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly tools?: readonly { readonly function: { readonly name: string; readonly parameters: unknown } }[];
  readonly stream?: boolean;
}

/**
 * How a reply streams beyond its text and calls. `thinking`: a reasoning model's thoughts, sent
 * first, in the delta field real servers use: llama.cpp and LM Studio `reasoning_content`, Ollama
 * `reasoning` (pi-ai 0.73.1 reads `reasoning_content`, `reasoning`, `reasoning_text`, the first that
 * is non-empty). `endsFor: 'length'`: the reply reaches its token cap, so the last call's arguments
 * stop half-way and `finish_reason` is "length" (OpenAI's chat completions; pi-ai maps it to
 * stopReason "length").
 */
export interface ReplyStreaming {
  readonly thinking?: string;
  readonly reasoningField?: 'reasoning_content' | 'reasoning';
  readonly endsFor?: 'length';
}

export type ScriptedReply = ReplyStreaming &
  ({ readonly text: string } | { readonly calls: readonly { readonly name?: string; readonly args: Record<string, unknown> }[]; readonly text?: string });

/** Chooses the reply to a request; it may wait (for what the test does on the page meanwhile) before answering. */
export type Script = (request: ChatRequest, index: number) => ScriptedReply | Promise<ScriptedReply>;

export const OLLAMA = 'http://localhost:11434/v1';

/**
 * Which real provider a scripted one stands for, by the address the page calls: the presets'
 * own (`web/src/model/presets.ts`); any other server is judged by OpenAI's reference rules.
 */
export function providerKindOf(base: string): ProviderKind {
  const { hostname, port } = new URL(base);
  if (hostname === 'api.openai.com') return 'openai-chat';
  if (hostname === 'openrouter.ai') return 'openrouter';
  if (hostname === 'api.anthropic.com') return 'anthropic';
  if (hostname === 'localhost' && port === '11434') return 'ollama-openai';
  if (hostname === 'localhost' && port === '1234') return 'lmstudio';
  if (hostname === 'localhost' && port === '8080') return 'llamacpp';
  return 'openai-chat';
}

/**
 * A scripted provider is as strict as the real one (issue 35): each request is judged by the
 * provider's published rules (`providers/`) before any script sees it, and a body the real one
 * refuses gets its real status and error body, so the test fails as the real request would.
 */
export function refusalOf(kind: ProviderKind, body: unknown): { status: number; body: string } | null {
  const judgement = judgeRequest(kind, body);
  return judgement.accepted ? null : { status: judgement.status, body: judgement.body };
}

let callCounter = 0;

/** One `data:` line of a streamed chat completion. */
export function sseChunk(delta: Record<string, unknown>, finish: string | null = null, model = 'scripted'): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

/** The SSE chunks of one streamed chat completion, split the way servers split it (text in pieces, arguments as a JSON string). */
export function sseParts(reply: ScriptedReply, model = 'scripted'): string[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => sseChunk(delta, finish, model);
  const parts: string[] = [chunk({ role: 'assistant', content: '' })];
  for (const piece of reply.thinking?.match(/.{1,12}/gs) ?? []) parts.push(chunk({ [reply.reasoningField ?? 'reasoning_content']: piece }));
  const text = 'text' in reply && reply.text ? reply.text : '';
  for (const piece of text.match(/.{1,12}/gs) ?? []) parts.push(chunk({ content: piece }));
  const cut = reply.endsFor === 'length';
  if ('calls' in reply) {
    reply.calls.forEach((call, index) => {
      callCounter += 1;
      const whole = JSON.stringify(call.args);
      // Cut at the cap: the last call's arguments end half-way, as the tokens ran out.
      const json = cut && index === reply.calls.length - 1 ? whole.slice(0, Math.ceil(whole.length / 2)) : whole;
      parts.push(chunk({ tool_calls: [{ index, id: `call_scripted_${callCounter}`, type: 'function', function: { name: call.name ?? 'seed_desk', arguments: '' } }] }));
      for (const piece of json.match(/.{1,16}/gs) ?? []) parts.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    });
    parts.push(chunk({}, cut ? 'length' : 'tool_calls'));
  } else {
    parts.push(chunk({}, cut ? 'length' : 'stop'));
  }
  parts.push('data: [DONE]\n\n');
  return parts;
}

/** The SSE body of one streamed chat completion. */
export function sseOf(reply: ScriptedReply, model = 'scripted'): string {
  return sseParts(reply, model).join('');
}

/**
 * The body of one streamed Anthropic Messages reply (docs.anthropic.com, "Streaming Messages"):
 * `message_start`, a `content_block_start` / `_delta` / `_stop` for the text and for each `tool_use`
 * (its input as `input_json_delta` pieces), `message_delta` with the stop reason ("tool_use",
 * "end_turn", or "max_tokens" for a reply cut at its cap, which pi-ai maps to stopReason "length").
 */
export function anthropicSse(reply: ScriptedReply, model = 'scripted'): string {
  const event = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const parts = [event('message_start', { message: { id: 'msg_scripted', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } })];
  let index = 0;
  const text = 'text' in reply && reply.text ? reply.text : '';
  if (text !== '') {
    parts.push(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
    for (const piece of text.match(/.{1,12}/gs) ?? []) parts.push(event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }));
    parts.push(event('content_block_stop', { index }));
    index += 1;
  }
  const calls = 'calls' in reply ? reply.calls : [];
  for (const call of calls) {
    callCounter += 1;
    parts.push(event('content_block_start', { index, content_block: { type: 'tool_use', id: `toolu_scripted_${callCounter}`, name: call.name ?? 'seed_desk', input: {} } }));
    for (const piece of JSON.stringify(call.args).match(/.{1,16}/gs) ?? []) parts.push(event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } }));
    parts.push(event('content_block_stop', { index }));
    index += 1;
  }
  const stop = reply.endsFor === 'length' ? 'max_tokens' : calls.length > 0 ? 'tool_use' : 'end_turn';
  parts.push(event('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 20 } }));
  parts.push(event('message_stop', {}));
  return parts.join('');
}

export const CORS = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*', 'access-control-allow-methods': 'GET, POST, OPTIONS' };

/** Routes `base` (chat completions and the model list) to the script; returns every chat request the page sent. */
export async function scriptProvider(page: Page, script: Script, base = OLLAMA, models = ['scripted']): Promise<ChatRequest[]> {
  const requests: ChatRequest[] = [];
  await page.route(`${base}/**`, async (route: Route) => {
    const request = route.request();
    if (request.method() === 'OPTIONS') return route.fulfill({ status: 204, headers: CORS });
    if (request.url().endsWith('/models')) return route.fulfill({ status: 200, headers: { ...CORS, 'content-type': 'application/json' }, body: JSON.stringify({ object: 'list', data: models.map((id) => ({ id, object: 'model' })) }) });
    const body = request.postDataJSON() as ChatRequest;
    requests.push(body);
    const refusal = refusalOf(providerKindOf(base), body);
    if (refusal) return route.fulfill({ status: refusal.status, headers: { ...CORS, 'content-type': 'application/json' }, body: refusal.body });
    const reply = await script(body, requests.length - 1);
    return route.fulfill({ status: 200, headers: { ...CORS, 'content-type': 'text/event-stream' }, body: sseOf(reply, body.model) });
  });
  return requests;
}

/**
 * Routes every request to `base` (the address itself, which the page probes, and everything under
 * it) to `answer`; returns the URLs that reached it, in order.
 */
export async function routeProvider(page: Page, base: string, answer: (route: Route) => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  await page.route(
    (url) => url.href === base || url.href.startsWith(`${base}/`),
    async (route) => {
      seen.push(`${route.request().method()} ${route.request().url()}`);
      await answer(route);
    },
  );
  return seen;
}

/** The revision the latest tool result's text carried (what a model reads), or null. */
export function lastRevisionSeen(request: ChatRequest): string | null {
  for (const message of [...request.messages].reverse()) {
    if (message.role !== 'tool') continue;
    const match = /revision:?\s*([\w:-]+)/i.exec(String(message.content));
    if (match) return match[1] ?? null;
  }
  return null;
}

/** The tool messages a request carried, in order (what the model was sent for each call). */
export function toolMessages(request: ChatRequest): ChatMessage[] {
  return request.messages.filter((message) => message.role === 'tool');
}

export interface ModelServer {
  /** The base URL to give the page: `http://127.0.0.1:<port>/v1`. */
  readonly baseUrl: string;
  /** Every chat request it received, in order. */
  readonly requests: ChatRequest[];
  /** Resolves when the client of chat request `index` has hung up (its connection closed). */
  hungUp(index: number): Promise<void>;
  close(): Promise<void>;
}

/** What the handler does with one chat request: write the answer (`writeSse`, `res.write`), keep it open, or cut it. */
export type ServerScript = (request: ChatRequest, index: number, res: ServerResponse) => void | Promise<void>;

/**
 * Starts an OpenAI-compatible server on 127.0.0.1 (a free port) that answers CORS and `GET /models`
 * itself and gives each chat request to `script`, once `kind`'s rules accept it (OpenAI's by default). With `cors: false` it answers as Ollama does an
 * origin it was not told to allow: 403 to the preflight, and no CORS header on anything.
 */
export async function startModelServer(script: ServerScript, { models = ['scripted'], cors: allowCors = true, kind = 'openai-chat' }: { models?: string[]; cors?: boolean; kind?: ProviderKind } = {}): Promise<ModelServer> {
  const requests: ChatRequest[] = [];
  const hangups: { promise: Promise<void>; resolve: () => void }[] = [];
  const hangup = (index: number) => {
    let entry = hangups[index];
    if (!entry) {
      let resolve = () => {};
      const promise = new Promise<void>((done) => (resolve = done));
      entry = hangups[index] = { promise, resolve };
    }
    return entry;
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const cors: Record<string, string> = allowCors
      ? {
          'access-control-allow-origin': req.headers.origin ?? '*',
          'access-control-allow-methods': 'GET, POST, OPTIONS',
          // `*` does not cover Authorization, which the SDK sends: name what was asked for.
          'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
        }
      : {};
    if (req.method === 'OPTIONS') return void res.writeHead(allowCors ? 204 : 403, cors).end();
    if (req.method === 'GET') {
      if (req.url?.endsWith('/models')) return void res.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: models.map((id) => ({ id, object: 'model' })) }));
      return void res.writeHead(200, cors).end('ok');
    }
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (piece: string) => (text += piece));
    req.on('end', () => {
      const body = JSON.parse(text) as ChatRequest;
      requests.push(body);
      const index = requests.length - 1;
      res.on('close', () => hangup(index).resolve());
      const refusal = refusalOf(kind, body);
      if (refusal) return void res.writeHead(refusal.status, { ...cors, 'content-type': 'application/json' }).end(refusal.body);
      res.writeHead(200, { ...cors, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.flushHeaders();
      void script(body, index, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    hungUp: (index) => hangup(index).promise,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
