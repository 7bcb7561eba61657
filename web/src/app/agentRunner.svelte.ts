import { createCarefulAgent } from '$domain/agents/careful';
import { createCarelessAgent } from '$domain/agents/careless';
import type { AgentStep, ScriptedAgent } from '$domain/agents/scriptedAgent';
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
 * Runs a scripted agent step by step through the same host path as the tool panel (schema,
 * approval, domain). The agent only sees what a model would: the result of each call.
 */
export class AgentRunner {
  name = $state<AgentName>('careful');
  turns = $state.raw<AgentTurn[]>([]);
  summary = $state<string | null>(null);
  running = $state(false);

  private agent: ScriptedAgent = createCarefulAgent();
  private pending: AgentStep | null = null;

  constructor(private readonly playground: Playground) {}

  get goal(): string {
    return this.agent.goal;
  }

  choose(name: AgentName): void {
    this.name = name;
    this.reset();
  }

  reset(): void {
    this.agent = this.name === 'careful' ? createCarefulAgent() : createCarelessAgent();
    this.pending = null;
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
    try {
      const next = this.pending ?? this.agent.start();
      if (next.kind === 'done') {
        this.summary = next.summary;
        return;
      }
      if (this.turns.length >= MAX_CALLS) {
        this.summary = `Stopped after ${MAX_CALLS} calls: the agent did not finish on its own.`;
        return;
      }
      const outcome = await this.playground.tool.callToEnd(JSON.stringify(next.args), false);
      this.turns = [...this.turns, { index: this.turns.length + 1, thought: next.thought, args: next.args, outcome }];
      this.pending = this.agent.next(observeToolCall(outcome));
      if (this.pending.kind === 'done') this.summary = this.pending.summary;
    } finally {
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
}

/** The page's one agent runner: the Agents tab shows it, and a lesson's "Do it for me" drives the same run. */
export const agentRunnerOf = onePerPage((playground) => new AgentRunner(playground));
