import { AgentStepper, createAgent } from '$domain/agents/stepper';
import { seededIdSource } from '$domain/ids';
import { observeToolCall } from '../app/agentObservation';
import type { LineOutcome, ToolCallOutcome } from '../protocol/messages';
import { PlaygroundHost } from '../worker/playgroundHost';
import type { JournalStore } from '../worker/store';
import type { Fact, StampedFact } from './facts';
import type { LessonAction } from '../../../lessons/format/lessonSchema';

/**
 * "Another tab" for the simulated page, as `ClosingQuestion.runTwinTab` plays it: a second host on
 * the same database, standing before this tab's last reservation, whose human reserves all 3
 * marigolds there. Its append reaches this tab as another tab's would.
 */
export async function twinTabReserves(host: PlaygroundHost, store: JournalStore, seed: number, note: (fact: Fact) => void): Promise<void> {
  await store.setLastSession(host.sessionId);
  const twin = await PlaygroundHost.start(store, seededIdSource(seed));
  twin.onAppended = (sessionId, entries) => {
    if (host.adoptForeign(sessionId, entries)) note({ kind: 'foreign-append' });
  };
  // Throws when the branch holds no reservation: every lesson that opens a twin tab has one.
  twin.navigate({ by: 'before-last-reservation' });
  let outcome: LineOutcome = await twin.runLine('/seeds reserve marigold-french 3');
  if (outcome.kind === 'confirm') outcome = await twin.answerDialog(outcome.dialogId, true);
  if (outcome.kind !== 'committed') throw new Error(`The twin tab could not reserve: ${JSON.stringify(outcome)}`);
  note({ kind: 'committed', change: outcome.change, via: 'twin' });
}

/** The lesson's "$latest"/"$previous": the revisions tool results returned, newest last, without repeats in a row (as `app/actions.ts`). */
export function fillRevisions(facts: readonly StampedFact[], args: Record<string, unknown>): Record<string, unknown> {
  const revisions: string[] = [];
  for (const fact of facts) {
    if (fact.kind !== 'tool' || fact.outcome.kind !== 'result') continue;
    const revision = fact.outcome.details?.revision;
    if (revision && revisions.at(-1) !== revision) revisions.push(revision);
  }
  const fill = (value: unknown): unknown => (value === '$latest' ? (revisions.at(-1) ?? value) : value === '$previous' ? (revisions.at(-2) ?? value) : value);
  return Object.fromEntries(Object.entries(args).map(([key, value]) => [key, fill(value)]));
}

/**
 * The Agents tab, as `run-agent` and `continue-agent` drive it: a chosen agent starts afresh and
 * steps `calls` times (or to its end); "Run to end" goes on with the run so far. Returns the run.
 */
export async function runAgent(
  current: AgentStepper | null,
  action: Extract<LessonAction, { do: 'run-agent' | 'continue-agent' }>,
  callTool: (args: string) => Promise<ToolCallOutcome>,
): Promise<AgentStepper> {
  const agent = action.do === 'run-agent' ? new AgentStepper(createAgent(action.agent)) : current;
  if (!agent) throw new Error('No scripted agent has been started.');
  const call = async (args: Record<string, unknown>) => observeToolCall(await callTool(JSON.stringify(args)));
  if (action.do === 'run-agent' && action.calls !== undefined) for (let n = 0; n < action.calls; n++) await agent.step(call);
  else await agent.runToEnd(call);
  return agent;
}
