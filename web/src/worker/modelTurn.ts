import { assistantMessageEntry, userMessageEntry } from '$domain/journal/entry';
import type { ModelMessage, ModelRecord, ModelTool } from '../protocol/messages';
import type { HostCore } from './hostCore';
import { noteAssistant } from './omp/agentRun';

/**
 * A real model's turn, recorded as OMP's agent loop records one: the learner's request as a user
 * message, each assistant message with its text and toolCall blocks (the calls' results follow,
 * appended by `toolCalls.ts` under the model's call ids). The page runs the provider; the worker
 * only ever sees the messages, never the address or the key.
 */
export async function recordModelMessage(core: HostCore, message: ModelMessage): Promise<ModelRecord> {
  // A model replays toolCall/toolResult as a pair: nothing may come between a call and its result.
  if (core.pendingApproval) return { kind: 'failed', text: `A ${core.pendingApproval.toolName} call is waiting for host approval: approve or deny it first.` };
  if (core.writeFailure !== null) return { kind: 'failed', text: core.blockedText() };
  const place = core.place();
  const entry =
    message.role === 'user'
      ? userMessageEntry(message.text, place)
      : assistantMessageEntry(message.content, place, message.stopReason, {
          api: message.api,
          provider: message.provider,
          model: message.model,
          usage: message.usage,
          ...(message.errorMessage === undefined ? {} : { errorMessage: message.errorMessage }),
        });
  core.appendNow(entry);
  // During an agent run the assistant message is its turn's (omp/agentRun.ts): one without tool calls ends the turn.
  if (message.role === 'assistant') await noteAssistant(core, entry);
  const failure = await core.settleWrites();
  if (failure !== null) return { kind: 'failed', text: failure };
  return { kind: 'recorded', entryId: entry.id };
}

/** The running extension's active tools (`pi.setActiveTools`), as the host offers them to a model: name, description and the schema it registered. */
export function offeredTools(core: HostCore): ModelTool[] {
  const active = core.extensions.activeToolNames();
  return [...core.extensions.tools.values()].filter(({ definition }) => active.includes(definition.name)).map(({ definition }) => ({
    name: definition.name,
    description: definition.description,
    parameters: JSON.parse(JSON.stringify(definition.parameters)) as Record<string, unknown>,
  }));
}
