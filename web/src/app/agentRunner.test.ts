/**
 * The scripted agents driven through the page's own tool path: each call is one `toolCall`
 * request, the agent sees only the result (as a model would), an approval prompt waits for the
 * learner, and a run ends in the agent's own summary (or is stopped after 12 calls).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ToolCallOutcome } from '../protocol/messages';
import { agentRunnerOf, AgentRunner } from './agentRunner.svelte';
import { FakeWorkers, toolResult } from './fakeConnection.testkit';
import { stubStorage } from './pageGlobals.testkit';
import { Playground } from './playground.svelte';
import { until, viewOf } from './viewOf.testkit.svelte';

/** While set, the careful agent is one that never finishes (only the 12-call stop can end its run). */
const agents = vi.hoisted(() => ({ endless: false }));
vi.mock(import('$domain/agents/careful'), async (importOriginal) => {
  const real = await importOriginal();
  return {
    ...real,
    createCarefulAgent: () =>
      agents.endless
        ? {
            name: 'careful' as const,
            goal: 'Query forever.',
            start: () => ({ kind: 'call' as const, args: { op: 'query' }, thought: 'Once more.' }),
            next: () => ({ kind: 'call' as const, args: { op: 'query' }, thought: 'Once more.' }),
          }
        : real.createCarefulAgent(),
  };
});

beforeEach(() => {
  stubStorage('sessionStorage');
  agents.endless = false;
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const queried = (revision: string, available: number): ToolCallOutcome =>
  toolResult(`bean-scarlet ${available} available\nrevision: ${revision}`, { ok: true, scope: 'query', revision, data: { items: [{ id: 'bean-scarlet', available, reserved: 5 - available }] } });
const reserved = (revision: string): ToolCallOutcome =>
  toolResult(`Reserved 1 bean-scarlet.\nrevision: ${revision}`, { ok: true, scope: 'act', revision, data: { item: { available: 4, reserved: 1 } } });
const stale: ToolCallOutcome = toolResult('Refused (stale-revision).', { ok: false, scope: 'act', code: 'stale-revision' });

/** The desk's answers, in order: queries from `query`, acts from `act` (a call with none left fails). */
function desk(workers: FakeWorkers, answers: { readonly query: ToolCallOutcome[]; readonly act: ToolCallOutcome[] }): void {
  const queries = [...answers.query];
  const acts = [...answers.act];
  workers.answerWith('toolCall', (body) => {
    const next = body.args.includes('"op":"query"') ? queries.shift() : acts.shift();
    return next ? { result: next } : { error: `No answer left for ${body.args}` };
  });
}

function setup() {
  const workers = new FakeWorkers();
  const playground = new Playground(workers.makeWorker);
  return { workers, playground, runner: new AgentRunner(playground) };
}

const sentArgs = (workers: FakeWorkers) => workers.sentOf('toolCall').map((body): unknown => JSON.parse(body.args));

describe('AgentRunner', () => {
  it('the careful agent queries, acts with exactly the revision it read, and ends with its summary', async () => {
    const { workers, runner } = setup();
    desk(workers, { query: [queried('session-1:root', 5)], act: [reserved('session-1:e2')] });
    const shown = viewOf(() => runner.turns.length);

    await runner.runToEnd();

    expect(sentArgs(workers)).toEqual([{ op: 'query' }, { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: 'session-1:root' }]);
    expect(workers.sentOf('toolCall').every((body) => !body.skipSchema)).toBe(true);
    expect(runner.turns.map((turn) => [turn.index, turn.outcome])).toEqual([
      [1, queried('session-1:root', 5)],
      [2, reserved('session-1:e2')],
    ]);
    expect(runner.turns[1]?.thought).toContain('sending exactly that revision');
    expect(runner.summary).toBe('Reserved 1 bean-scarlet packet. The desk is now at revision session-1:e2. bean-scarlet now shows 4 available, 1 reserved.');
    expect(runner.finished).toBe(true);
    expect(runner.running).toBe(false);
    expect(shown.now()).toBe(2);
    shown.stop();
  });

  it('steps one call at a time; a finished run sends nothing more', async () => {
    const { workers, runner } = setup();
    desk(workers, { query: [queried('r1', 5), queried('r3', 4)], act: [stale, reserved('r4')] });
    await runner.step();
    expect(runner.turns).toHaveLength(1);
    expect(runner.finished).toBe(false);
    await runner.step();
    // Refused as stale: the careful agent looks again before deciding.
    await runner.step();
    await runner.step();
    expect(sentArgs(workers).map((args) => JSON.stringify(args))).toEqual([
      '{"op":"query"}',
      '{"op":"act","action":"reserve","id":"bean-scarlet","packets":1,"expectedRevision":"r1"}',
      '{"op":"query"}',
      '{"op":"act","action":"reserve","id":"bean-scarlet","packets":1,"expectedRevision":"r3"}',
    ]);
    expect(runner.finished).toBe(true);
    expect(runner.summary).toContain('The first try was refused (stale-revision)');
    await runner.step();
    expect(workers.sentOf('toolCall')).toHaveLength(4);
  });

  it('the agent sees only what a model would: a call the host failed is an error, and the careful agent stops', async () => {
    const { workers, runner } = setup();
    workers.answerWith('toolCall', { result: { kind: 'failed', text: 'The worker stopped: out of memory' } });
    await runner.runToEnd();
    expect(runner.turns).toHaveLength(1);
    expect(runner.summary).toBe(
      'I stopped: the host blocked my query call before the seed desk could answer ("The worker stopped: out of memory"). That call changed nothing, and I am not retrying it; whether to allow it is your decision.',
    );
  });

  it('a call that needs the host\'s approval waits for the learner, then goes on with the approved call\'s result', async () => {
    const { workers, runner, playground } = setup();
    desk(workers, { query: [queried('r1', 5)], act: [] });
    await runner.step();
    workers.answerWith('toolCall', { result: { kind: 'approval', callId: 'call-2', prompt: 'Allow seed_desk to reserve 1 bean-scarlet?' } });
    workers.answerWith('answerApproval', { result: reserved('r2') });

    const stepping = runner.step();
    await until(() => playground.tool.approval?.value === 'prompting');
    expect(runner.running).toBe(true);
    expect(runner.turns).toHaveLength(1);
    expect(workers.sentOf('answerApproval')).toEqual([]);

    playground.tool.answerApproval(true);
    await stepping;
    expect(workers.sentOf('answerApproval')).toEqual([{ type: 'answerApproval', callId: 'call-2', approved: true }]);
    expect(runner.turns[1]?.outcome).toEqual(reserved('r2'));
    expect(runner.summary).toMatch(/^Reserved 1 bean-scarlet packet\. The desk is now at revision r2\./);
    expect(runner.running).toBe(false);
  });

  it('choosing an agent starts a fresh run with that agent\'s goal', async () => {
    const { workers, runner } = setup();
    desk(workers, { query: [queried('r1', 5)], act: [reserved('r2')] });
    await runner.runToEnd();
    runner.choose('careless');
    expect(runner.name).toBe('careless');
    expect(runner.turns).toEqual([]);
    expect(runner.summary).toBeNull();
    expect(runner.goal).toBe('Reserve 1 bean-scarlet packet, and send the request a couple more times to be sure it sticks.');

    desk(workers, { query: [queried('r2', 4)], act: [reserved('r3'), stale, stale] });
    await runner.runToEnd();
    // The careless agent resends its first revision without looking again.
    expect(sentArgs(workers).slice(2).map((args) => JSON.stringify(args))).toEqual([
      '{"op":"query"}',
      ...Array.from({ length: 3 }, () => '{"op":"act","action":"reserve","id":"bean-scarlet","packets":1,"expectedRevision":"r2"}'),
    ]);
    expect(runner.summary).toContain('One act went through.');
  });

  it('an agent that never finishes is stopped after 12 calls', async () => {
    agents.endless = true;
    const { workers, runner } = setup();
    workers.answerWith('toolCall', { result: queried('r1', 5) });
    await runner.runToEnd();
    expect(workers.sentOf('toolCall')).toHaveLength(12);
    expect(runner.turns).toHaveLength(12);
    expect(runner.summary).toBe('Stopped after 12 calls: the agent did not finish on its own.');
  });

  it('the page has one runner: the Agents tab and a lesson\'s "Do it for me" drive the same run', () => {
    const { playground } = setup();
    const other = setup().playground;
    expect(agentRunnerOf(playground)).toBe(agentRunnerOf(playground));
    expect(agentRunnerOf(other)).not.toBe(agentRunnerOf(playground));
  });
});
