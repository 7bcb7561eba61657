/**
 * The page's side of check (k) (Node, worker host on fake-indexeddb): a real model's turn (issue 30)
 * recorded by the page's host, as the page's Real model panel records one. The page's own loop
 * (web/src/model/modelLoop.ts, `runModelRequest`) runs against a scripted provider that answers as
 * Ollama's qwen3 would through pi-ai's openai-completions API: a seed_desk query, then an act with
 * the revision the query's text showed it, then a closing text. The loop records the user message
 * and each assistant message (`PlaygroundHost.recordModelMessage`) and runs each call under the
 * model's own id (`PlaygroundHost.callTool(args, false, { id, name })`, an approval prompt
 * approved, as the page's `callToEnd` does once the learner approves).
 *
 * Written to host-test/out/model-turn/ for the Bun side (checksModelTurn.ts): `page.jsonl` (the
 * export) and `page.json` (what the page showed: the desk, the calls with what the model saw, the
 * `/seeds query` answer).
 */
import type { AssistantMessage, AssistantMessageEvent, Context, ToolCall, ToolResultMessage } from '@mariozechner/pi-ai';
import { mkdirSync, writeFileSync } from 'node:fs';
import { seededIdSource } from '../domain/ids';
import { isConfirmAsked } from '../web/src/protocol/messages';
import { runModelRequest, type LoopEvent, type LoopHost, type ModelStreamCall } from '../web/src/model/modelLoop';
import { PlaygroundHost } from '../web/src/worker/playgroundHost';
import { JournalStore } from '../web/src/worker/store';
import { deskView } from './pageRunner';
import type { DeskView } from './script';

export const MODEL_TURN = { api: 'openai-completions', provider: 'ollama', model: 'qwen3' } as const;
export const MODEL_TURN_PROMPT = 'Reserve one packet of bean-scarlet for me.';
export const MODEL_TURN_CLOSING = 'Done: 1 packet of bean-scarlet is reserved for you.';

/** What the page showed for the turn, for the real host's side to compare with. */
/** The loop's host over the worker's host: every call through the host's gates, each approval prompt noted and approved. */
export function approvingLoopHost(host: PlaygroundHost, approvals: string[]): LoopHost {
  return {
    record: (message) => host.recordModelMessage(message),
    call: async (ref, args) => {
      const outcome = await host.callTool(args, false, ref);
      if (outcome.kind !== 'approval') return outcome;
      approvals.push(outcome.prompt);
      return host.answerApproval(outcome.callId, true);
    },
  };
}

export interface PageModelTurn {
  readonly prompt: string;
  readonly systemPrompt: string;
  readonly end: string;
  /** Each call as the Real model panel shows it: id, name, arguments, and the text the model saw. */
  readonly calls: readonly { readonly id: string; readonly name: string; readonly args: Record<string, unknown>; readonly modelSaw: string; readonly isError: boolean; readonly details: unknown }[];
  readonly closing: string;
  readonly desk: DeskView;
  readonly query: string;
  /** The approval prompts the page would have shown (none in the default mode). */
  readonly approvals: readonly string[];
}

const USAGE: AssistantMessage['usage'] = { input: 40, output: 12, cacheRead: 0, cacheWrite: 0, totalTokens: 52, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

function assistant(content: AssistantMessage['content'], stopReason: AssistantMessage['stopReason']): AssistantMessage {
  return { role: 'assistant', content, ...MODEL_TURN, usage: USAGE, stopReason, timestamp: Date.now() };
}

/** pi-ai's event protocol for one reply: start, its text, its whole tool calls, done. */
function streamOf(message: AssistantMessage): ModelStreamCall {
  async function* events(): AsyncGenerator<AssistantMessageEvent> {
    const partial = assistant([], 'stop');
    yield { type: 'start', partial };
    for (const [contentIndex, part] of message.content.entries()) {
      if (part.type === 'text') yield { type: 'text_delta', contentIndex, delta: part.text, partial };
      else if (part.type === 'toolCall') yield { type: 'toolcall_end', contentIndex, toolCall: part, partial };
    }
    yield { type: 'done', reason: message.stopReason as 'stop' | 'toolUse', message };
  }
  return Object.assign(events(), { result: async () => message });
}

/** The scripted model: it reads only what it was sent (the context), as a model does. */
function scriptedModel(context: Context): AssistantMessage {
  const results = context.messages.filter((message): message is ToolResultMessage => message.role === 'toolResult');
  if (results.length === 0) {
    const query: ToolCall = { type: 'toolCall', id: 'call_model_1', name: 'seed_desk', arguments: { op: 'query' } };
    return assistant([{ type: 'text', text: 'Let me look at the desk first.' }, query], 'toolUse');
  }
  if (results.length === 1) {
    const seen = results[0]!.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
    const revision = /^revision: (\S+)$/m.exec(seen)?.[1];
    if (!revision) throw new Error(`the query result the model saw has no revision line: ${seen}`);
    const act: ToolCall = { type: 'toolCall', id: 'call_model_2', name: 'seed_desk', arguments: { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: revision } };
    return assistant([act], 'toolUse');
  }
  return assistant([{ type: 'text', text: MODEL_TURN_CLOSING }], 'stop');
}

export async function pageModelTurn(outDir: string, seed: number): Promise<PageModelTurn> {
  const store = await JournalStore.open(`host-test-model-turn-${process.pid}`);
  const host = await PlaygroundHost.start(store, seededIdSource(seed));
  // The agent's grant first, as the lessons' scripts give it: /seeds agent on, confirmed.
  const grant = await host.runLine('/seeds agent on');
  if (!isConfirmAsked(grant)) throw new Error(`/seeds agent on asked nothing: ${JSON.stringify(grant)}`);
  const granted = await host.answerUi({ kind: 'confirm', id: grant.request.id, confirmed: true });
  if (granted.kind !== 'committed') throw new Error(`the grant did not commit: ${JSON.stringify(granted)}`);

  const systemPrompt = 'You are a coding agent in a teaching playground. Use the seed_desk tool to do what the user asks; keep your answers short.';
  const calls: { id: string; name: string; args: Record<string, unknown>; modelSaw: string; isError: boolean; details: unknown }[] = [];
  const approvals: string[] = [];
  let closing = '';
  const end = await runModelRequest({
    prompt: MODEL_TURN_PROMPT,
    systemPrompt,
    tools: await host.modelTools(),
    stream: (context) => streamOf(scriptedModel(structuredClone(context))),
    host: approvingLoopHost(host, approvals),
    signal: new AbortController().signal,
    limit: 8,
    onEvent: (event: LoopEvent) => {
      if (event.type === 'call') calls.push({ id: event.id, name: event.name, args: event.args, modelSaw: '', isError: false, details: null });
      else if (event.type === 'text') closing += event.delta;
      else if (event.type === 'reply') closing = '';
      else if (event.type === 'result') {
        const call = calls.find((each) => each.id === event.id);
        if (!call || event.outcome.kind !== 'result' || !event.modelSaw) throw new Error(`call ${event.id} got no result: ${JSON.stringify(event.outcome)}`);
        // The panel's "What the model saw": the text parts of the result message the model was sent.
        call.modelSaw = event.modelSaw.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
        call.isError = event.outcome.isError;
        call.details = event.outcome.details;
      }
    },
    explain: async (message) => {
      throw new Error(`the scripted provider failed: ${message}`);
    },
  });
  if (end.kind !== 'answered') throw new Error(`the model's turn ended ${JSON.stringify(end)}`);
  mkdirSync(outDir, { recursive: true });
  writeFileSync(`${outDir}/page.jsonl`, host.exportSession().jsonl);
  const query = await host.runLine('/seeds query');
  const turn: PageModelTurn = { prompt: MODEL_TURN_PROMPT, systemPrompt, end: end.kind, calls, closing, desk: deskView(host), query: 'text' in query ? query.text : JSON.stringify(query), approvals };
  writeFileSync(`${outDir}/page.json`, JSON.stringify(turn, null, 2));
  return turn;
}
