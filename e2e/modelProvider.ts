import type { Page, Route } from '@playwright/test';

/**
 * A scripted model provider for the Real model tests: `page.route` answers the OpenAI-compatible
 * API as a server streams it (`text/event-stream`, one `data:` line per chunk, `[DONE]` at the end),
 * and each reply is chosen by a script from the request the page sent (its messages, so a script
 * can read the revision a tool result carried, as a model would).
 */

export interface ChatRequest {
  readonly model: string;
  readonly messages: readonly { readonly role: string; readonly content?: unknown; readonly tool_calls?: unknown; readonly tool_call_id?: string }[];
  readonly tools?: readonly { readonly function: { readonly name: string; readonly parameters: unknown } }[];
  readonly stream?: boolean;
}

export type ScriptedReply =
  | { readonly text: string }
  | { readonly calls: readonly { readonly name?: string; readonly args: Record<string, unknown> }[]; readonly text?: string };

export type Script = (request: ChatRequest, index: number) => ScriptedReply;

export const OLLAMA = 'http://localhost:11434/v1';

let callCounter = 0;

/** The SSE body of one streamed chat completion, split the way servers split it (text in pieces, arguments as a JSON string). */
export function sseOf(reply: ScriptedReply, model = 'scripted'): string {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const parts: string[] = [chunk({ role: 'assistant', content: '' })];
  const text = 'text' in reply && reply.text ? reply.text : '';
  for (const piece of text.match(/.{1,12}/gs) ?? []) parts.push(chunk({ content: piece }));
  if ('calls' in reply) {
    reply.calls.forEach((call, index) => {
      callCounter += 1;
      const json = JSON.stringify(call.args);
      parts.push(chunk({ tool_calls: [{ index, id: `call_scripted_${callCounter}`, type: 'function', function: { name: call.name ?? 'seed_desk', arguments: '' } }] }));
      for (const piece of json.match(/.{1,16}/gs) ?? []) parts.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    });
    parts.push(chunk({}, 'tool_calls'));
  } else {
    parts.push(chunk({}, 'stop'));
  }
  parts.push('data: [DONE]\n\n');
  return parts.join('');
}

const CORS = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*', 'access-control-allow-methods': 'GET, POST, OPTIONS' };

/** Routes `base` (chat completions and the model list) to the script; returns every chat request the page sent. */
export async function scriptProvider(page: Page, script: Script, base = OLLAMA, models = ['scripted']): Promise<ChatRequest[]> {
  const requests: ChatRequest[] = [];
  await page.route(`${base}/**`, async (route: Route) => {
    const request = route.request();
    if (request.method() === 'OPTIONS') return route.fulfill({ status: 204, headers: CORS });
    if (request.url().endsWith('/models')) return route.fulfill({ status: 200, headers: { ...CORS, 'content-type': 'application/json' }, body: JSON.stringify({ object: 'list', data: models.map((id) => ({ id, object: 'model' })) }) });
    const body = request.postDataJSON() as ChatRequest;
    requests.push(body);
    const reply = script(body, requests.length - 1);
    return route.fulfill({ status: 200, headers: { ...CORS, 'content-type': 'text/event-stream' }, body: sseOf(reply, body.model) });
  });
  return requests;
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
