import type { PageModel } from '../../protocol/messages';
import type { AgentRun } from './agentRunState';

/**
 * What the worker's host knows of the agent side, which the page drives (it calls the model, or
 * steps a scripted agent): the run going on, the real model it last asked and the system prompt it
 * last sent. `ctx.model`, `ctx.isIdle()` and `ctx.getSystemPrompt()` read it; `agentRun.ts` and
 * `loopEvents.ts` write it.
 */
export class AgentFacts {
  /** The agent run going on (a scripted agent's or a real model's), whose turns fire the agent events. */
  run: AgentRun | null = null;
  /** The real model the page last asked on the Agents tab (`ctx.model`); undefined until then. */
  model: PageModel | undefined = undefined;
  /** The system prompt of the last real model request, as `before_agent_start` left it (`ctx.getSystemPrompt()`); [] before one. */
  systemPrompt: readonly string[] = [];
  /**
   * An assistant message with tool calls whose `message_end` waits: OMP's loop prepares a reply's
   * calls (`tool_call` included) before it ends the message (pi-agent-core agent-loop.ts,
   * `preparedDispatchByMessage`); the page ends it when its first call has been prepared.
   */
  unendedMessage: unknown = null;
}
