/** Where one agent run stands: the state `agentRun.ts` keeps on the host core between the page's calls. */
export interface AgentRun {
  turnIndex: number;
  /** Whether a `turn_start` has no `turn_end` yet. */
  open: boolean;
  /** The open turn's assistant message, once recorded. */
  message: unknown;
  /** Its tool calls that have no result yet. */
  readonly unanswered: Set<string>;
  toolResults: unknown[];
  /** Every message of the run, for `agent_end`. */
  readonly messages: unknown[];
}
