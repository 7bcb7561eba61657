import { AgentStepper, createAgent, type AgentLifecycle } from '$domain/agents/stepper';
import type { AgentObservation } from '$domain/agents/scriptedAgent';
import type { ToolCallOutcome } from '../protocol/messages';
import { observeToolCall } from './agentObservation';
import { onePerPage } from './onePerPage';
import type { Playground } from './playground.svelte';

export type AgentName = 'careful' | 'careless';

export interface AgentTurn {
  readonly index: number;
  readonly thought: string;
  readonly args: Record<string, unknown>;
  readonly outcome: ToolCallOutcome;
}

const MAX_CALLS = 12;

/**
 * The Agents tab's run of a scripted agent: the domain's `AgentStepper` (the one the lesson tests
 * and host-test drive, tested in domain/agents), each call through the same host path as the tool
 * panel (schema, approval, domain). The agent only sees what a model would: the result of each
 * call. This class keeps only what the tab shows: the turns, the summary, whether a call runs.
 */
export class AgentRunner {
  name = $state<AgentName>('careful');
  turns = $state.raw<AgentTurn[]>([]);
  summary = $state<string | null>(null);
  running = $state(false);

  private stepper: AgentStepper;

  constructor(private readonly playground: Playground) {
    this.stepper = this.newStepper();
  }

  /** The worker fires OMP's agent events around the run (worker/omp/agentRun.ts); a scripted agent has no system prompt. */
  private newStepper(): AgentStepper {
    const lifecycle: AgentLifecycle = {
      start: async (prompt) => void (await this.playground.connection.call({ type: 'agentStart', prompt, systemPrompt: '' })),
      end: async (summary) => void (await this.playground.connection.call({ type: 'agentEnd', summary })),
    };
    return new AgentStepper(createAgent(this.name), MAX_CALLS, lifecycle);
  }

  get goal(): string {
    return this.stepper.agent.goal;
  }

  choose(name: AgentName): void {
    this.name = name;
    this.reset();
  }

  reset(): void {
    this.stepper = this.newStepper();
    this.turns = [];
    this.summary = null;
  }

  get finished(): boolean {
    return this.summary !== null;
  }

  /** One call (or the final summary). */
  async step(): Promise<void> {
    if (this.finished || this.running) return;
    this.running = true;
    const stepper = this.stepper;
    try {
      await stepper.step((args, thought) => this.call(stepper, args, thought));
    } finally {
      // A run chosen afresh meanwhile keeps its own (empty) summary.
      if (stepper === this.stepper) this.summary = stepper.summary;
      this.running = false;
    }
  }

  async runToEnd(): Promise<void> {
    while (!this.finished) {
      const before = this.turns.length;
      await this.step();
      if (this.turns.length === before && !this.finished) break;
    }
  }

  /** One of the run's calls, as an agent's (the goals tell a scripted agent's calls from the learner's). */
  private async call(stepper: AgentStepper, args: Record<string, unknown>, thought: string): Promise<AgentObservation> {
    const outcome = await this.playground.tool.callToEnd(JSON.stringify(args), false, undefined, stepper.agent.name);
    if (stepper === this.stepper) this.turns = [...this.turns, { index: this.turns.length + 1, thought, args, outcome }];
    return observeToolCall(outcome);
  }
}

/** The page's one agent runner: the Agents tab shows it, and a lesson's "Do it for me" drives the same run. */
export const agentRunnerOf = onePerPage((playground) => new AgentRunner(playground));
