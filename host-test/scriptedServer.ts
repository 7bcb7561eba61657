/**
 * The scripted provider of check (l), served over HTTP on 127.0.0.1 (Node for the page's side, Bun
 * for the real OMP's side): Ollama's OpenAI-compatible chat completions endpoint. Every request is
 * judged by Ollama's rules (providers/index.ts, 'ollama-openai'): a refused one is answered with
 * Ollama's own status and error body, as the real server would; an accepted one with the scripted
 * model's reply (scriptedModel.ts), streamed as Ollama streams it (`text/event-stream`, one
 * `data:` chunk per line, `[DONE]` last: ollama/ollama `openai/openai.go`), the model reading
 * only the tools as Ollama's decoding leaves them.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { judgeRequest, seedDeskToldEnough, type ToolAsTold } from '../providers/index';
import { LOOP_MODEL, scriptedReply, seedDeskToldAs, sseOfReply, type ChatMessage, type ScriptedReply } from './scriptedModel';

export interface ServedRequest {
  readonly path: string;
  /** Ollama's verdict: accepted, or its status and error body. */
  readonly verdict: string;
  /** How the request told the model of seed_desk: a tool, OMP's device xd://seed_desk (its docs come from reading it), or not at all. */
  readonly toldAs: 'tool' | 'device' | null;
  /** What the model was not told of seed_desk as a tool (seedDeskToldEnough). */
  readonly missing: readonly string[];
  readonly reply: ScriptedReply | null;
}

export interface ScriptedServer {
  /** `http://127.0.0.1:<port>/v1`, the base URL a client is given. */
  readonly baseUrl: string;
  readonly requests: ServedRequest[];
  close(): Promise<void>;
}

function answer(res: ServerResponse, status: number, body: string, type = 'application/json'): void {
  res.writeHead(status, { 'content-type': type }).end(body);
}

export async function startScriptedServer(): Promise<ScriptedServer> {
  const requests: ServedRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (req.method === 'GET' && path === '/v1/models') return answer(res, 200, JSON.stringify({ object: 'list', data: [{ id: LOOP_MODEL, object: 'model', created: 1, owned_by: 'library' }] }));
    if (req.method !== 'POST' || path !== '/v1/chat/completions') return answer(res, 404, '404 page not found', 'text/plain');
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (piece: string) => (text += piece));
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      const judgement = judgeRequest('ollama-openai', body);
      if (!judgement.accepted) {
        requests.push({ path, verdict: `refused ${judgement.status} ${judgement.body}`, toldAs: null, missing: [], reply: null });
        return answer(res, judgement.status, judgement.body);
      }
      const told: readonly ToolAsTold[] = judgement.tools;
      const seedDesk = told.find((tool) => tool.name === 'seed_desk');
      const messages = (body as { messages?: unknown }).messages;
      const conversation = Array.isArray(messages) ? (messages as ChatMessage[]) : [];
      const reply = scriptedReply(conversation, told);
      requests.push({ path, verdict: 'accepted', toldAs: seedDeskToldAs(conversation, told), missing: seedDesk ? seedDeskToldEnough(seedDesk) : [], reply });
      const model = (body as { model?: unknown }).model;
      answer(res, 200, sseOfReply(reply, typeof model === 'string' ? model : LOOP_MODEL), 'text/event-stream');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
