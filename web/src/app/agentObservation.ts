import type { AgentObservation } from '$domain/agents/scriptedAgent';
import type { ToolCallOutcome } from '../protocol/messages';

/** What a scripted agent gets to see of a seed_desk call: only what a model would, the result. */
export function observeToolCall(outcome: ToolCallOutcome): AgentObservation {
  if (outcome.kind !== 'result') return { ok: false, isError: true, text: outcome.kind === 'failed' ? outcome.text : 'No result.' };
  if (outcome.isError || !outcome.details) return { ok: false, isError: true, text: outcome.text };
  return { ok: outcome.details.ok, isError: false, text: outcome.text, details: outcome.details };
}
