import { freshEntryId, type IdSource } from '../ids';
import { customEntry } from '../journal/entry';
import type { SessionJournal } from '../journal/journal';
import { SEED_DESK_CUSTOM_TYPE, type Snapshot } from '../snapshot';
import { checkSeedDeskParams } from '../tool/schema';
import { planSeedDeskCall } from '../tool/seedDeskTool';
import { errorObservation, observationFromResult, type AgentObservation, type ScriptedAgent } from './scriptedAgent';

export interface TranscriptStep {
  readonly args: Record<string, unknown>;
  readonly observation: AgentObservation;
  readonly thought: string;
}

export interface AgentRun {
  readonly agent: ScriptedAgent['name'];
  readonly transcript: readonly TranscriptStep[];
  /** The agent's final words, or the harness's note when the step limit cut the run short. */
  readonly summary: string;
  /** False when the run hit `maxSteps` before the agent said it was done. */
  readonly finished: boolean;
}

export interface RunOptions {
  /**
   * Runs after call `callIndex` (0-based) has been answered and before the agent sees the answer
   * or makes its next call: the place for a test to change the journal as a human acting meanwhile.
   */
  readonly between?: (callIndex: number) => void;
  /**
   * The host's gate, consulted before a call runs: return a reason to block it (approval denied,
   * policy deny) or undefined to let it through. A blocked call becomes an isError observation.
   */
  readonly deny?: (args: Record<string, unknown>, callIndex: number) => string | undefined;
}

/** Append a seed desk snapshot on the journal's leaf, as the host's appendEntry would. */
export function appendDeskSnapshot(journal: SessionJournal, ids: IdSource, snapshot: Snapshot): void {
  const id = freshEntryId(ids, (candidate) => journal.has(candidate));
  journal.append(customEntry(SEED_DESK_CUSTOM_TYPE, snapshot, { id, parentId: journal.leafId, timestamp: ids.now() }));
}

/**
 * One seed_desk call against the journal's current branch, as the host would run it: the schema
 * check first (a failure is an error result), then the tool's code: its own check of the op's
 * fields (a thrown error) and the domain's plan; a commit is appended on the leaf with no await in
 * between and described with the new revision.
 */
export function executeSeedDeskCall(journal: SessionJournal, ids: IdSource, args: Record<string, unknown>): AgentObservation {
  const checked = checkSeedDeskParams(args);
  if (!checked.ok) return errorObservation(`seed_desk arguments rejected by the schema: ${checked.problems.join('; ')}`);
  const plan = planSeedDeskCall(args, journal.state());
  switch (plan.kind) {
    case 'error':
      return errorObservation(plan.message);
    case 'answer':
      return observationFromResult(plan.result);
    case 'commit':
      appendDeskSnapshot(journal, ids, plan.snapshot);
      return observationFromResult(plan.describe(journal.revision()));
  }
}

/**
 * Drive a scripted agent against an in-memory journal until it is done or `maxSteps` calls have
 * run. No DOM, no clock beyond `ids.now()`, no randomness beyond `ids`: equal inputs, equal runs.
 */
export function runAgentInMemory(
  agent: ScriptedAgent,
  journal: SessionJournal,
  ids: IdSource,
  maxSteps = 12,
  options: RunOptions = {},
): AgentRun {
  const transcript: TranscriptStep[] = [];
  let step = agent.start();
  while (step.kind === 'call') {
    if (transcript.length >= maxSteps) {
      return { agent: agent.name, transcript, summary: `Stopped by the harness after ${maxSteps} calls; the agent had not finished.`, finished: false };
    }
    const callIndex = transcript.length;
    const reason = options.deny?.(step.args, callIndex);
    const observation =
      reason === undefined ? executeSeedDeskCall(journal, ids, step.args) : errorObservation(`Blocked by the host: ${reason}`);
    transcript.push({ args: step.args, observation, thought: step.thought });
    options.between?.(callIndex);
    step = agent.next(observation);
  }
  return { agent: agent.name, transcript, summary: step.summary, finished: true };
}
