/**
 * (k) A real model's turn (issue 30) recorded by the page opens in the real OMP (Bun). The page's
 * side (modelTurnPage.ts, run by playground.ts before this) recorded a grant, the learner's request,
 * two assistant messages with seed_desk calls under the model's ids and their results, and a
 * closing assistant text, and exported the session to host-test/out/model-turn/page.jsonl with what
 * the page showed in page.json. Here the real host's SessionManager opens that file: the desk the
 * real extension rebuilds on its leaf, and the messages the host would replay to a model
 * (`buildSessionContext()`, which also drops a toolCall left without its result), must be the page's.
 */
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';
import type { CheckContext } from './checkKit';
import type { PageModelTurn } from './modelTurnPage';
import { openSession } from './omp';
import { deskView } from './realReads';
import type { Checks } from './report';

const PAGE = fileURLToPath(new URL('./out/model-turn', import.meta.url));

interface Block {
  readonly type: string;
  readonly text?: string;
  readonly id?: string;
  readonly name?: string;
  readonly arguments?: unknown;
}
interface ContextMessage {
  readonly role: string;
  readonly content: string | readonly Block[];
  readonly api?: string;
  readonly provider?: string;
  readonly model?: string;
  readonly stopReason?: string;
  readonly toolCallId?: string;
  readonly toolName?: string;
  readonly isError?: boolean;
}

const blocks = (message: ContextMessage): readonly Block[] => (typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content);
const textOf = (message: ContextMessage) =>
  blocks(message)
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('\n');

export async function modelTurnChecks(checks: Checks, ctx: CheckContext): Promise<void> {
  await checks.run("(k) a model turn recorded by the page opens in the real OMP: the same desk on that leaf, and the turn replayed in order with the same calls and the texts the page showed as what the model saw", async () => {
    if (!existsSync(`${PAGE}/page.jsonl`) || !existsSync(`${PAGE}/page.json`)) throw new Error(`${PAGE}/page.jsonl or page.json is missing: the playground side's model turn did not run`);
    const page = JSON.parse(readFileSync(`${PAGE}/page.json`, 'utf8')) as PageModelTurn;
    assert.equal(page.calls.length, 2, 'the page recorded other than two calls');
    assert.deepEqual(page.desk.quantities, { 'bean-scarlet': 1 }, 'the page itself did not end with bean-scarlet 1 reserved');
    const dir = ctx.dir('model-turn');
    copyFileSync(`${PAGE}/page.jsonl`, `${dir}/session.jsonl`);
    const h = await openSession({ dir, file: `${dir}/session.jsonl` });
    try {
      // What a model would be replayed: read before anything else runs in the session.
      const context = h.sm.buildSessionContext().messages as unknown as readonly ContextMessage[];
      const agentMessages = h.session.messages as unknown as readonly ContextMessage[];

      // The desk, as the real extension rebuilds it on the leaf the host opened at.
      const desk = deskView(h);
      assert.deepEqual(desk, page.desk, `real desk ${JSON.stringify(desk)}\npage desk ${JSON.stringify(page.desk)}`);

      // The turn, in order: user, assistant(query call), toolResult, assistant(act call), toolResult, assistant(text).
      assert.deepEqual(
        context.map((message) => message.role),
        ['user', 'assistant', 'toolResult', 'assistant', 'toolResult', 'assistant'],
        `the session context's roles: ${JSON.stringify(context.map((message) => message.role))}`,
      );
      assert.ok(isDeepStrictEqual(agentMessages, context), "the AgentSession's messages are not the session context's");
      const [user, ...rest] = context;
      assert.equal(textOf(user!), page.prompt);
      const assistants = rest.filter((message) => message.role === 'assistant');
      for (const message of assistants) {
        assert.deepEqual({ api: message.api, provider: message.provider, model: message.model }, { api: 'openai-completions', provider: 'ollama', model: 'qwen3' });
      }
      assert.deepEqual(
        assistants.map((message) => message.stopReason),
        ['toolUse', 'toolUse', 'stop'],
      );
      for (const [index, call] of page.calls.entries()) {
        const assistant = context[1 + index * 2]!;
        const result = context[2 + index * 2]!;
        const toolCalls = blocks(assistant).filter((block) => block.type === 'toolCall');
        assert.deepEqual(
          toolCalls.map((block) => ({ id: block.id, name: block.name, arguments: block.arguments })),
          [{ id: call.id, name: call.name, arguments: call.args }],
          `call ${index + 1}: the replayed toolCall is not the page's`,
        );
        assert.equal(result.toolCallId, call.id, `call ${index + 1}: the toolResult answers another call`);
        assert.equal(result.toolName, call.name);
        assert.equal(result.isError, call.isError);
        assert.equal(textOf(result), call.modelSaw, `call ${index + 1}: the replayed result text is not what the page showed as what the model saw`);
      }
      assert.equal(page.calls[0]!.id, 'call_model_1');
      // The act carried the revision the query's result showed the model.
      const queried = /^revision: (\S+)$/m.exec(textOf(context[2]!))?.[1];
      assert.equal((page.calls[1]!.args as { expectedRevision?: unknown }).expectedRevision, queried, 'the act did not carry the revision the query returned');
      assert.equal(textOf(context[5]!), page.closing);

      // And the real extension answers /seeds query there as the page did.
      await h.command('/seeds query');
      assert.equal(h.ui.notes.at(-1)?.message, page.query, 'the real /seeds query answer is not the page\'s');
      return `${context.length} messages replayed (${context.map((message) => message.role).join(', ')}); calls ${page.calls.map((call) => `${call.id} ${String(call.args['op'])}`).join(', ')}; desk ${JSON.stringify(desk.quantities)} at ${desk.revision}`;
    } finally {
      await h.close();
    }
  });
}
