/** The Real model section's sentences that are built from facts (an ending, a connection, a result). */
import type { ToolResultMessage } from '@mariozechner/pi-ai';
import type { LoopEnd, LoopEvent } from '../model/modelLoop';
import type { ModelApi } from '../model/presets';
import type { ToolCallOutcome, ToolDetailsView } from '../protocol/messages';

/** One tool call of a model's reply as the panel shows it (the page state keeps a list of these). */
export interface ModelCallView {
  readonly id: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
  /** The result's text as the model was sent it; `api` says whether that message can carry an error flag. */
  readonly modelSaw: { readonly text: string; readonly isError: boolean; readonly api: ModelApi } | null;
  readonly hostHas: { readonly stage: string; readonly details: ToolDetailsView | null; readonly approval: string | null } | null;
  readonly failed: string | null;
}


export function resultView(outcome: ToolCallOutcome, modelSaw: ToolResultMessage | null, api: ModelApi): Partial<ModelCallView> {
  if (outcome.kind !== 'result') return { failed: outcome.kind === 'failed' ? outcome.text : 'The call did not finish.' };
  const text = modelSaw?.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n') ?? outcome.text;
  return {
    modelSaw: { text, isError: outcome.isError, api },
    hostHas: { stage: outcome.stage, details: outcome.details, approval: outcome.approval ? `${outcome.approval.tier} tier, ${outcome.approval.policy} (${outcome.approval.source})` : null },
  };
}

/**
 * What the model was told about a result the host counts as an error, by the API that carried it.
 * pi-ai (0.73.1) sends an OpenAI-compatible server `{ role: "tool", content, tool_call_id }`: that
 * message has no error field, so the model has only the text; Anthropic's `tool_result` block
 * carries `is_error` (pi-ai's anthropic provider sets it from the result's `isError`).
 */
export function errorFlagText(api: ModelApi): string {
  return api === 'anthropic-messages'
    ? 'sent as an error result (the tool_result carried is_error: true)'
    : 'the host counts this as an error, but an OpenAI-compatible tool message has no error flag: the model was sent this text only';
}

export function unrunText(why: Extract<LoopEvent, { type: 'unrun' }>['why']): string {
  switch (why) {
    case 'aborted':
      return 'Not run: the reply was stopped while this call was arriving, so the host never got it.';
    case 'error':
      return 'Not run: the reply broke off while this call was arriving, so the host never got it.';
    case 'length':
      return 'Not run: the reply reached its token limit while this call was being written, so its arguments are cut short and the host never got it.';
  }
}

export function endingText(end: LoopEnd, limit: number, replyTokens: number): string {
  const calls = `${end.calls} tool ${end.calls === 1 ? 'call' : 'calls'}`;
  switch (end.kind) {
    case 'answered':
      return `The model finished on its own after ${calls}; its turn is in the journal.`;
    case 'limit':
      return `Stopped after ${calls}: the model kept calling tools without finishing, and this page ends a request at ${limit} calls. Every call has its result in the journal.`;
    case 'length':
      return `The reply reached the reply token limit (${replyTokens} tokens) before it finished, after ${calls}: ${end.unrun > 0 ? `the ${end.unrun === 1 ? 'tool call it was writing was' : `${end.unrun} tool calls it was writing were`} not run, and ` : ''}what it had written is in the journal; raise "Reply token limit" or ask for less, then ask again.`;
    case 'stopped':
      return end.recorded ? `Stopped after ${calls}. What the model had said is in the journal, and every call there has its result.` : 'Stopped before the model answered: nothing was recorded.';
    case 'provider':
      return end.problem.text;
    case 'host':
      return `The host could not go on: ${end.text}`;
    case 'handled':
      return 'The extension took this request itself (its input handler answered "handled"), so no model was asked.';
  }
}

/** What "Test connection" found; `pick` asks the learner to choose the model (a hosted provider's list). */
export function connectedText(models: readonly string[], pick: boolean): string {
  if (models.length === 0) return 'Connected, but no models are installed there yet (for Ollama: `ollama pull qwen3`).';
  const shown = models.slice(0, 6).join(', ');
  const found = `Connected: ${models.length} ${models.length === 1 ? 'model' : 'models'} at this address (${shown}${models.length > 6 ? ', …' : ''})`;
  return pick ? `${found}; pick one in "Model" (its list has them all), one that takes tool calls.` : `${found}.`;
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
