import { createCarefulAgent } from './careful';
import { createCarelessAgent } from './careless';
import type { AgentObservation, AgentStep, ScriptedAgent } from './scriptedAgent';

export type AgentName = ScriptedAgent['name'];

export function createAgent(name: AgentName): ScriptedAgent {
  return name === 'careful' ? createCarefulAgent() : createCarelessAgent();
}

/** Makes one call (with the thought the agent gave for it) and returns what the agent sees of it. */
export type AgentCall = (args: Record<string, unknown>, thought: string) => Promise<AgentObservation>;

/**
 * One scripted agent's run, a call at a time, through any seed_desk caller: the page's Agents tab
 * runs it ("Step", "Run to end": web/src/app/agentRunner.svelte.ts), and the lesson tests and
 * host-test drive the same run over a host.
 */
export class AgentStepper {
  private pending: AgentStep | null = null;
  summary: string | null = null;
  calls = 0;

  constructor(
    readonly agent: ScriptedAgent,
    private readonly maxCalls = 12,
  ) {}

  get finished(): boolean {
    return this.summary !== null;
  }

  async step(call: AgentCall): Promise<void> {
    if (this.finished) return;
    const next = this.pending ?? this.agent.start();
    if (next.kind === 'done') {
      this.summary = next.summary;
      return;
    }
    if (this.calls >= this.maxCalls) {
      this.summary = `Stopped after ${this.maxCalls} calls: the agent did not finish on its own.`;
      return;
    }
    this.calls++;
    this.pending = this.agent.next(await call(next.args, next.thought));
    if (this.pending.kind === 'done') this.summary = this.pending.summary;
  }

  async runToEnd(call: AgentCall): Promise<void> {
    while (!this.finished) await this.step(call);
  }
}
