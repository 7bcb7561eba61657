/**
 * The page's side of check (l) (Node, worker host on fake-indexeddb): the page's own model loop
 * (web/src/model/modelLoop.ts, `runModelRequest`) with the page's own provider path for the Ollama
 * preset (web/src/model/providers.ts: pi-ai's openai-completions stream, the page's options) against
 * the scripted provider over HTTP on 127.0.0.1 (scriptedServer.ts), after the human's grant. Each
 * call runs in the worker host under the model's id, approved if the host asks (as the page's
 * `callToEnd` does once the learner approves).
 *
 * Written to host-test/out/agent-loop/ for the Bun side (checksAgentLoop.ts): `page.jsonl` (the
 * export) and `page.json` (how the loop ended, the server's verdicts, the desk).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { seededIdSource } from '../domain/ids';
import { isConfirmAsked } from '../web/src/protocol/messages';
import { runModelRequest } from '../web/src/model/modelLoop';
import { loadProvider, modelStream } from '../web/src/model/providers';
import { PlaygroundHost } from '../web/src/worker/playgroundHost';
import { JournalStore } from '../web/src/worker/store';
import { approvingLoopHost } from './modelTurnPage';
import { deskView } from './pageRunner';
import { LOOP_MODEL, LOOP_PROMPT } from './scriptedModel';
import { startScriptedServer, type ServedRequest } from './scriptedServer';
import type { DeskView } from './script';

export interface PageAgentLoop {
  readonly end: string;
  readonly requests: readonly ServedRequest[];
  readonly desk: DeskView;
  readonly approvals: readonly string[];
}

export async function pageAgentLoop(outDir: string, seed: number): Promise<PageAgentLoop> {
  const server = await startScriptedServer();
  try {
    const store = await JournalStore.open(`host-test-agent-loop-${process.pid}`);
    const host = await PlaygroundHost.start(store, seededIdSource(seed));
    const grant = await host.runLine('/seeds agent on');
    if (!isConfirmAsked(grant)) throw new Error(`/seeds agent on asked nothing: ${JSON.stringify(grant)}`);
    const granted = await host.answerUi({ kind: 'confirm', id: grant.request.id, confirmed: true });
    if (granted.kind !== 'committed') throw new Error(`the grant did not commit: ${JSON.stringify(granted)}`);

    const stream = modelStream(await loadProvider('openai-completions'), { preset: 'ollama', baseUrl: server.baseUrl, model: LOOP_MODEL, apiKey: '' }, { started: () => {}, sentTools: () => {} });
    const approvals: string[] = [];
    const end = await runModelRequest({
      prompt: LOOP_PROMPT,
      systemPrompt: 'You are a coding agent in a teaching playground. Use the seed_desk tool to do what the user asks; keep your answers short.',
      tools: await host.modelTools(),
      stream,
      host: approvingLoopHost(host, approvals),
      signal: new AbortController().signal,
      limit: 8,
      onEvent: () => {},
      explain: async (message) => {
        throw new Error(`the scripted provider failed: ${message}`);
      },
    });
    mkdirSync(outDir, { recursive: true });
    writeFileSync(`${outDir}/page.jsonl`, host.exportSession().jsonl);
    const turn: PageAgentLoop = { end: JSON.stringify(end), requests: server.requests, desk: deskView(host), approvals };
    writeFileSync(`${outDir}/page.json`, JSON.stringify(turn, null, 2));
    return turn;
  } finally {
    await server.close();
  }
}
