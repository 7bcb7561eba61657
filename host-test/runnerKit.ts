/**
 * What both runners of the differential share: the step loop, the scripted agent driven through a
 * runner's own tool step, the revisions a script's placeholders name, and ids in first-seen order.
 */
import type { AgentObservation } from '../domain/agents/scriptedAgent';
import { AgentStepper, createAgent } from '../domain/agents/stepper';
import { describeStep, type Outcome, type Script, type Step } from './script';

export type AgentScriptStep = Extract<Step, { agent: unknown }> | Extract<Step, { agentContinue: unknown }>;

/**
 * Runs an `agent`/`agentContinue` step with `call` (the runner's own tool step): the same scripted
 * agent, seeing only each call's result, as the page's Agents tab runs it. Returns the run, to
 * continue later, and the step's outcome.
 */
export async function driveAgent(current: AgentStepper | null, step: AgentScriptStep, call: (args: Record<string, unknown>) => Promise<Outcome>): Promise<{ agent: AgentStepper; outcome: Outcome }> {
  const agent = 'agent' in step ? new AgentStepper(createAgent(step.agent)) : current;
  if (!agent) throw new Error('agentContinue: no agent has been started');
  const calls: Outcome[] = [];
  const observe = async (args: Record<string, unknown>): Promise<AgentObservation> => {
    const outcome = await call(args);
    calls.push(outcome);
    if (outcome.kind !== 'tool') return { ok: false, isError: true, text: 'No result.' };
    const details = outcome.details as AgentObservation['details'] | null;
    if (outcome.isError || !details) return { ok: false, isError: true, text: outcome.text };
    return { ok: details.ok, isError: false, text: outcome.text, details };
  };
  if ('agent' in step && step.calls !== undefined) for (let n = 0; n < step.calls; n++) await agent.step(observe);
  else await agent.runToEnd(observe);
  return { agent, outcome: { kind: 'agent', calls, summary: agent.summary } };
}

/** The revisions a script's placeholders name, kept the same way by both runners. */
export class Revisions {
  private readonly desk: string[] = [];
  private readonly results: string[] = [];

  noteDesk(revision: string): void {
    if (this.desk.at(-1) !== revision) this.desk.push(revision);
  }

  /** A tool result's `details.revision`, if it has one. */
  noteResult(details: unknown): void {
    const revision = typeof details === 'object' && details !== null ? (details as { revision?: unknown }).revision : undefined;
    if (typeof revision === 'string' && this.results.at(-1) !== revision) this.results.push(revision);
  }

  fill(args: Record<string, unknown>, offBranch: () => string | null): Record<string, unknown> {
    const value = args['expectedRevision'];
    const current = this.desk.at(-1) ?? '';
    const named: Record<string, () => string | null | undefined> = {
      $current: () => current,
      $previous: () => this.desk.at(-2) ?? current,
      $latest: () => this.results.at(-1),
      $previousResult: () => this.results.at(-2),
      $offBranch: offBranch,
    };
    if (typeof value !== 'string' || !(value in named)) return args;
    // Unresolved, a placeholder stays as it is (as the page leaves it): the desk then refuses it.
    return { ...args, expectedRevision: named[value]!() ?? value };
  }
}

/** Ids in first-seen order, without repeats. */
export class Seen {
  readonly ids: string[] = [];
  add(ids: Iterable<string>): void {
    for (const id of ids) if (!this.ids.includes(id)) this.ids.push(id);
  }
}

/** Every step of `script` on a runner (either host's), in order; a step that throws names itself. */
export async function runSteps<T>(runner: { step(step: Step, label?: string): Promise<T> }, script: Script): Promise<T[]> {
  const steps: T[] = [];
  for (const [index, step] of script.steps.entries()) {
    try {
      steps.push(await runner.step(step, script.labels?.[index]));
    } catch (error) {
      throw new Error(`step ${index + 1} ${describeStep(step, script.labels?.[index])}: ${error instanceof Error ? error.stack : String(error)}`);
    }
  }
  return steps;
}
