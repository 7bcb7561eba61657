import { describe, expect, it } from 'vitest';
import { grantedDesk, reservedOn } from './desk.testkit';
import { executeSeedDeskCall } from './harness';
import type { ScriptedAgent } from './scriptedAgent';
import { AgentStepper, createAgent } from './stepper';

/**
 * The stepper the page's Agents tab runs (web/src/app/agentRunner.svelte.ts), the lesson tests and
 * host-test drive (issue 36: one copy): a call per Step, with the thought the agent gave for it,
 * the agent's own summary at its end, a stop after the call limit.
 */
describe('AgentStepper', () => {
  it('one Step is one call, made with the thought the agent gave for it; Run to end goes on to the summary', async () => {
    const desk = grantedDesk({ seed: 41, message: 'reserve one bean' });
    const calls: { args: Record<string, unknown>; thought: string }[] = [];
    const stepper = new AgentStepper(createAgent('careful'));
    const call = async (args: Record<string, unknown>, thought: string) => {
      calls.push({ args, thought });
      return executeSeedDeskCall(desk.journal, desk.ids, args);
    };
    await stepper.step(call);
    expect(calls.map((made) => made.args['op'])).toEqual(['query']);
    expect(calls[0]?.thought).toMatch(/\S/);
    expect(stepper.finished).toBe(false);
    await stepper.runToEnd(call);
    expect(calls.map((made) => made.args['op'])).toEqual(['query', 'act']);
    expect(stepper.summary).toMatch(/^Reserved 1 bean-scarlet packet\./);
    expect(reservedOn(desk.journal, 'bean-scarlet')).toBe(1);
    // Finished: a further Step calls nothing.
    await stepper.step(call);
    expect(calls).toHaveLength(2);
  });

  it('stops after its call limit when the agent does not finish on its own', async () => {
    const endless: ScriptedAgent = { name: 'careless', goal: 'query forever', start: () => ({ kind: 'call', args: { op: 'query' }, thought: 'look' }), next: () => ({ kind: 'call', args: { op: 'query' }, thought: 'again' }) };
    const stepper = new AgentStepper(endless, 3);
    let made = 0;
    await stepper.runToEnd(async () => {
      made++;
      return { ok: true, isError: false, text: 'ok' };
    });
    expect(made).toBe(3);
    expect(stepper.summary).toBe('Stopped after 3 calls: the agent did not finish on its own.');
  });

  it('tells its lifecycle where the run starts (the goal, before the first call) and ends (the summary, once)', async () => {
    const desk = grantedDesk({ seed: 42, message: 'reserve one bean' });
    const order: string[] = [];
    const agent = createAgent('careful');
    const stepper = new AgentStepper(agent, 12, {
      start: async (prompt) => void order.push(`start: ${prompt}`),
      end: async (summary) => void order.push(`end: ${summary}`),
    });
    const call = async (args: Record<string, unknown>) => {
      order.push(`call: ${String(args['op'])}`);
      return executeSeedDeskCall(desk.journal, desk.ids, args);
    };
    await stepper.runToEnd(call);
    await stepper.step(call);
    expect(order).toEqual([`start: ${agent.goal}`, 'call: query', 'call: act', `end: ${stepper.summary ?? ''}`]);
  });
});
