import { createCarefulAgent } from './careful';
import { createCarelessAgent } from './careless';
import type { AgentObservation, AgentStep, ScriptedAgent } from './scriptedAgent';

export type AgentName = ScriptedAgent['name'];

export function createAgent(name: AgentName): ScriptedAgent {
  return name === 'careful' ? createCarefulAgent() : createCarelessAgent();
}

/**
 * One scripted agent's run, a call at a time, through any seed_desk caller: the way the page's
 * Agents tab steps it ("Step", "Run to end"), for the lesson tests and host-test to drive the same
 * run over a host. `call` makes one call and returns what the agent sees of it.
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

  async step(call: (args: Record<string, unknown>) => Promise<AgentObservation>): Promise<void> {
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
    this.pending = this.agent.next(await call(next.args));
    if (this.pending.kind === 'done') this.summary = this.pending.summary;
  }

  async runToEnd(call: (args: Record<string, unknown>) => Promise<AgentObservation>): Promise<void> {
    while (!this.finished) await this.step(call);
  }
}
