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
 * Two routes, one check each: seed_desk top-level (`tools.xdev: false`: a tool of the request,
 * as the page's loop offers it), and as installed (OMP's default: the device xd://seed_desk,
 * checksProviders.ts), where the model reads the device's docs, then writes each call's JSON
 * arguments to it through OMP's own `write` tool; the page's record is the same for both.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SEED_DESK_ACT_FIELDS, SEED_DESK_OP_NAMES } from '../providers/index';
import type { PageAgentLoop } from './agentLoopPage';
import { confirmed, type CheckContext } from './checkKit';
import { openSession } from './omp';
import { ompRegistry } from './providerBodies';
import { deskView } from './realReads';
import type { Checks } from './report';
import { LOOP_CLOSING, LOOP_MODEL, LOOP_PROMPT } from './scriptedModel';
import { startScriptedServer, type ServedRequest } from './scriptedServer';
import { byOrder, turnRecord } from './turnRecord';

const PAGE = fileURLToPath(new URL('./out/agent-loop', import.meta.url));

/** Every request accepted, seed_desk told as `route` in each, and as a tool told its ops and act's fields. */
function verdicts(side: string, requests: readonly ServedRequest[], route: 'tool' | 'device'): string[] {
  return requests.flatMap((request, index) => [
    ...(request.verdict === 'accepted' ? [] : [`${side}, request ${index + 1}: ${request.verdict}`]),
    ...(request.verdict === 'accepted' && request.toldAs !== route ? [`${side}, request ${index + 1}: seed_desk told as ${String(request.toldAs)}, not as a ${route}`] : []),
    ...(request.missing.length > 0 ? [`${side}, request ${index + 1}: the model was not told ${request.missing.join(', ')}`] : []),
  ]);
}

export async function agentLoopChecks(checks: Checks, ctx: CheckContext): Promise<void> {
  // Literal titles, so docs/lessons.md can cite them.
  await checks.run("(l) the real OMP's agent loop, seed_desk top-level, against a scripted Ollama over HTTP: the careful sequence and a stale revision, the same calls, results and desk as the page's loop", () => loopTurn(ctx, false, 'tool'));
  await checks.run("(l) the real OMP's agent loop, seed_desk as installed (xd://seed_desk), against a scripted Ollama over HTTP: the careful sequence and a stale revision, the same calls, results and desk as the page's loop", () => loopTurn(ctx, true, 'device'));
}

/** One turn of the real AgentSession against the scripted server, compared with the page's; the check's detail line. */
async function loopTurn(ctx: CheckContext, xdev: boolean, route: 'tool' | 'device'): Promise<string> {
  if (!existsSync(`${PAGE}/page.jsonl`) || !existsSync(`${PAGE}/page.json`)) throw new Error(`${PAGE}/page.jsonl or page.json is missing: the playground side's agent loop did not run`);
  const page = JSON.parse(readFileSync(`${PAGE}/page.json`, 'utf8')) as PageAgentLoop;
  const server = await startScriptedServer();
  const dir = ctx.dir(`agent-loop-${route}`);
  try {
    // Ollama as a user configures it in models.yml (a local server, no key).
    const modelsYml = `providers:\n  ollama:\n    baseUrl: ${server.baseUrl}\n    api: openai-completions\n    auth: none\n    models:\n      - id: ${LOOP_MODEL}\n`;
    const registry = await ompRegistry(`${dir}/registry`, modelsYml, async () => new Response('not found', { status: 404 }));
    const model = registry.find('ollama', LOOP_MODEL);
    if (!model) throw new Error(`OMP's registry has no ollama/${LOOP_MODEL} from models.yml`);
    const h = await openSession({ dir, model: { registry, model }, settings: { 'tools.xdev': xdev, 'retry.enabled': false } });
    try {
      await confirmed(h, '/seeds agent on');
      await h.session.prompt(LOOP_PROMPT);
      await h.sm.flush();
      const file = h.sm.getSessionFile();
      if (!file || !existsSync(file)) throw new Error('OMP wrote no session file for the turn');
      const problems = [...verdicts('real OMP', server.requests, route), ...verdicts('page', page.requests, 'tool')];
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
      // As installed, what the model is told of seed_desk is what reading the device returned.
      const unread = route === 'device' ? [...SEED_DESK_OP_NAMES, ...SEED_DESK_ACT_FIELDS].filter((word) => !(real.docs ?? '').includes(word)) : [];
      assert.deepEqual(unread, [], `reading xd://seed_desk did not name ${unread.join(', ')}: ${real.docs}`);
      const docs = real.docs === null ? '' : `; reading xd://seed_desk returned ${real.docs.length} characters of docs and schema`;
      return `${server.requests.length} requests to the scripted Ollama from the real OMP, ${page.requests.length} from the page, all accepted${docs}; calls ${real.calls.map((call) => `${call.id} ${String(call.args['op'])}`).join(', ')}; results ${real.results.map((result) => result.text.split('\n')[0]).join(' | ')}; desk ${JSON.stringify(desk.quantities)}`;
    } finally {
      await h.close();
    }
  } finally {
    await server.close();
  }
}
