/**
 * (l) A turn through the real OMP's own agent loop (issue 35, point 5), Bun. The scripted provider
 * (scriptedServer.ts: Ollama's OpenAI-compatible endpoint on 127.0.0.1, every request judged by
 * Ollama's rules) is configured the way a user configures Ollama in models.yml, and
 * `session.prompt` runs the real AgentSession: its agent loop, its provider layer (OMP's
 * openai-completions stream over real HTTP), its argument validation, approval and tool execution,
 * its session file. Nothing of the turn is written here.
 *
 * The scripted model (scriptedModel.ts) does the lesson's careful sequence and then a stale revision
 * followed by a new query. The page's side (agentLoopPage.ts, run before this by playground.ts)
 * ran the same model through the page's loop; the session file OMP wrote and the page's export must
 * hold the same calls, the same results (text, isError, details) and the same desk, once session
 * ids and seed desk entry ids are named by their order (SID, desk#N), as the differential does.
 *
 * The session's own retries are off (`retry.enabled`): a refused request fails the check at once
 * instead of being sent again with backoff.
 *
 * seed_desk runs top-level (`tools.xdev: false`): as installed, OMP mounts an extension tool as the
 * device xd://seed_desk (checksProviders.ts), which a model reaches through `read`/`write`, not as
 * the tool the page's loop offers.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PageAgentLoop } from './agentLoopPage';
import { confirmed, type CheckContext } from './checkKit';
import { openSession } from './omp';
import { ompRegistry } from './providerBodies';
import { deskView } from './realReads';
import type { Checks } from './report';
import { LOOP_CLOSING, LOOP_MODEL, LOOP_PROMPT } from './scriptedModel';
import { startScriptedServer, type ServedRequest } from './scriptedServer';

const PAGE = fileURLToPath(new URL('./out/agent-loop', import.meta.url));

/** What a session file holds of the turn: the calls, their results, the closing text, the seed desk entries. */
export interface TurnRecord {
  readonly calls: readonly { readonly id: string; readonly name: string; readonly args: Record<string, unknown> }[];
  readonly results: readonly { readonly toolCallId: string; readonly toolName: string; readonly text: string; readonly isError: boolean; readonly details: unknown }[];
  readonly closing: string;
  readonly desk: readonly unknown[];
}

interface Line {
  readonly type: string;
  readonly id?: string;
  readonly customType?: string;
  readonly data?: unknown;
  readonly message?: { readonly role: string; readonly content: string | readonly { type: string; text?: string; id?: string; name?: string; arguments?: Record<string, unknown> }[]; readonly toolCallId?: string; readonly toolName?: string; readonly isError?: boolean; readonly details?: unknown };
}

/**
 * The turn as a session file holds it, with its session id and seed desk entry ids named by order.
 * OMP's agent loop strips the intent field `i` before the tool runs (pi-agent-core `extractIntent`);
 * where the recorded arguments still carry it, it is left out here: the page's tool is told none.
 */
export function turnRecord(jsonl: string): TurnRecord {
  const lines = linesOf(jsonl);
  const deskEntries = lines.filter((line) => line.type === 'custom' && line.customType === 'seed-desk-state-v1');
  const messages = lines.flatMap((line) => (line.type === 'message' && line.message ? [line.message] : []));
  const blocks = (message: NonNullable<Line['message']>) => (typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content);
  const record: TurnRecord = {
    calls: messages.filter((message) => message.role === 'assistant').flatMap((message) => blocks(message).flatMap((block) => (block.type === 'toolCall' ? [{ id: String(block.id), name: String(block.name), args: withoutIntent(block.arguments ?? {}) }] : []))),
    results: messages.filter((message) => message.role === 'toolResult').map((message) => ({ toolCallId: String(message.toolCallId), toolName: String(message.toolName), text: blocks(message).map((block) => block.text ?? '').join('\n'), isError: message.isError === true, details: message.details ?? null })),
    closing: blocks(messages.filter((message) => message.role === 'assistant').at(-1) ?? { role: 'assistant', content: [] }).map((block) => (block.type === 'text' ? (block.text ?? '') : '')).join(''),
    desk: deskEntries.map((line) => line.data),
  };
  return JSON.parse(byOrder(jsonl, JSON.stringify(record))) as TurnRecord;
}

function linesOf(jsonl: string): Line[] {
  return jsonl.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as Line);
}

/** `text` with the file's session id named SID and its seed desk entry ids desk#1, desk#2… in file order. */
export function byOrder(jsonl: string, text: string): string {
  const lines = linesOf(jsonl);
  const sessionId = lines.find((line) => line.type === 'session')?.id;
  if (!sessionId) throw new Error('the session file has no session header');
  let named = text.split(sessionId).join('SID');
  lines.filter((line) => line.type === 'custom' && line.customType === 'seed-desk-state-v1').forEach((line, index) => {
    named = named.split(String(line.id)).join(`desk#${index + 1}`);
  });
  return named;
}

function withoutIntent(args: Record<string, unknown>): Record<string, unknown> {
  const { i: _intent, ...rest } = args;
  return rest;
}

/** Every request the provider accepted, and the model was told seed_desk's ops and act's fields in each. */
function verdicts(side: string, requests: readonly ServedRequest[]): string[] {
  return requests.flatMap((request, index) => [
    ...(request.verdict === 'accepted' ? [] : [`${side}, request ${index + 1}: ${request.verdict}`]),
    ...(request.missing.length > 0 ? [`${side}, request ${index + 1}: the model was not told ${request.missing.join(', ')}`] : []),
  ]);
}

export async function agentLoopChecks(checks: Checks, ctx: CheckContext): Promise<void> {
  await checks.run("(l) a turn through the real OMP's own agent loop against a scripted Ollama over HTTP (query, act with its revision; a stale revision, then a new query): every request passes Ollama's rules, and OMP's session file and the page's journal hold the same calls, results and desk", async () => {
    if (!existsSync(`${PAGE}/page.jsonl`) || !existsSync(`${PAGE}/page.json`)) throw new Error(`${PAGE}/page.jsonl or page.json is missing: the playground side's agent loop did not run`);
    const page = JSON.parse(readFileSync(`${PAGE}/page.json`, 'utf8')) as PageAgentLoop;
    const server = await startScriptedServer();
    const dir = ctx.dir('agent-loop');
    try {
      // Ollama as a user configures it in models.yml (a local server, no key).
      const modelsYml = `providers:\n  ollama:\n    baseUrl: ${server.baseUrl}\n    api: openai-completions\n    auth: none\n    models:\n      - id: ${LOOP_MODEL}\n`;
      const registry = await ompRegistry(`${dir}/registry`, modelsYml, async () => new Response('not found', { status: 404 }));
      const model = registry.find('ollama', LOOP_MODEL);
      if (!model) throw new Error(`OMP's registry has no ollama/${LOOP_MODEL} from models.yml`);
      const h = await openSession({ dir, model: { registry, model }, settings: { 'tools.xdev': false, 'retry.enabled': false } });
      try {
        await confirmed(h, '/seeds agent on');
        await h.session.prompt(LOOP_PROMPT);
        await h.sm.flush();
        const file = h.sm.getSessionFile();
        if (!file || !existsSync(file)) throw new Error('OMP wrote no session file for the turn');
        const problems = [...verdicts('real OMP', server.requests), ...verdicts('page', page.requests)];
        if (problems.length > 0) throw new Error(problems.join('\n'));
        const realFile = readFileSync(file, 'utf8');
        const pageFile = readFileSync(`${PAGE}/page.jsonl`, 'utf8');
        const real = turnRecord(realFile);
        const pageTurn = turnRecord(pageFile);
        assert.deepEqual(real.calls.map((call) => call.id), ['call_loop_1', 'call_loop_2', 'call_loop_3', 'call_loop_4', 'call_loop_5'], `the real turn's calls: ${JSON.stringify(real.calls)}\nits results: ${JSON.stringify(real.results.map((result) => result.text))}`);
        assert.deepEqual(real.calls, pageTurn.calls, 'the calls differ');
        assert.deepEqual(real.results, pageTurn.results, 'the results differ');
        assert.equal(real.closing, LOOP_CLOSING, `the real turn closed with: ${real.closing}`);
        assert.equal(pageTurn.closing, LOOP_CLOSING);
        assert.deepEqual(real.desk, pageTurn.desk, 'the seed desk entries differ');
        assert.ok(real.results[2]!.text.startsWith('Refused (stale-revision)'), `the third call was not refused as stale: ${real.results[2]!.text}`);
        // The desk the real extension rebuilds now, and the one the page showed, each named by its own file.
        const desk = deskView(h);
        assert.deepEqual(JSON.parse(byOrder(realFile, JSON.stringify(desk))), JSON.parse(byOrder(pageFile, JSON.stringify(page.desk))), `real desk ${JSON.stringify(desk)}, page desk ${JSON.stringify(page.desk)}`);
        assert.equal(h.ui.selects.length, page.approvals.length, 'one host asked for approval and the other did not');
        return `${server.requests.length} requests to the scripted Ollama from the real OMP, ${page.requests.length} from the page, all accepted; calls ${real.calls.map((call) => `${call.id} ${String(call.args['op'])}`).join(', ')}; results ${real.results.map((result) => result.text.split('\n')[0]).join(' | ')}; desk ${JSON.stringify(desk.quantities)}`;
      } finally {
        await h.close();
      }
    } finally {
      await server.close();
    }
  });
}
