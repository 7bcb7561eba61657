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
 * Where the run starts and ends, for a host that fires OMP's agent events around it (the
 * worker's `agentStart`/`agentEnd`): `start` before the first call with the agent's goal as the
 * prompt, `end` once with the summary.
 */
export interface AgentLifecycle {
  start(prompt: string): Promise<void>;
  end(summary: string): Promise<void>;
}

/**
 * One scripted agent's run, a call at a time, through any seed_desk caller: the page's Agents tab
 * runs it ("Step", "Run to end": web/src/app/agentRunner.svelte.ts), and the lesson tests and
 * host-test drive the same run over a host.
 */
export class AgentStepper {
  private pending: AgentStep | null = null;
  summary: string | null = null;
  calls = 0;
  private started = false;

  constructor(
    readonly agent: ScriptedAgent,
    private readonly maxCalls = 12,
    private readonly lifecycle: AgentLifecycle | null = null,
  ) {}

  get finished(): boolean {
    return this.summary !== null;
  }

  async step(call: AgentCall): Promise<void> {
    if (this.finished) return;
    if (!this.started) {
      this.started = true;
      await this.lifecycle?.start(this.agent.goal);
    }
    const next = this.pending ?? this.agent.start();
    if (next.kind === 'done') return this.finish(next.summary);
    if (this.calls >= this.maxCalls) return this.finish(`Stopped after ${this.maxCalls} calls: the agent did not finish on its own.`);
    this.calls++;
    this.pending = this.agent.next(await call(next.args, next.thought));
    if (this.pending.kind === 'done') await this.finish(this.pending.summary);
  }

  private async finish(summary: string): Promise<void> {
    this.summary = summary;
    await this.lifecycle?.end(summary);
  }

  async runToEnd(call: AgentCall): Promise<void> {
    while (!this.finished) await this.step(call);
  }
}
