import { fromPromise, type SnapshotFrom } from 'xstate';
import { approvalMachine } from '../machines/approval';
import type { ApprovalModeView, ApprovalPolicy, ToolCallOutcome } from '../protocol/messages';
import type { Connection } from './connection.svelte';
import type { Desk } from './desk.svelte';
import type { FactLog } from './facts.svelte';
import { runActor } from './runActor';

/**
 * The seed_desk tool as a model would call it through the host (schema, approval, domain), the
 * host's approval prompt (its machine), and the host settings that decide it: the user policy,
 * the approval mode and whether a UI is attached.
 */
export class ToolCalls {
  /** The last seed_desk outcome, shown as text and details. */
  outcome = $state.raw<ToolCallOutcome | null>(null);
  /** The revision from the latest tool result: "use latest revision" fills it in; nothing refreshes it silently. */
  latestRevision = $state.raw<string | null>(null);
  approval = $state.raw<SnapshotFrom<typeof approvalMachine>>();
  readonly approvalActor;
  private pendingArgs = '';
  private pendingBefore = 0;

  constructor(
    private readonly connection: Connection,
    private readonly desk: Desk,
    private readonly facts: FactLog,
  ) {
    this.approvalActor = runActor(
      approvalMachine.provide({
        actors: { answer: fromPromise(({ input }) => this.connection.call({ type: 'answerApproval', callId: input.callId, approved: input.approved })) },
      }),
      (snapshot, previous) => {
        this.approval = snapshot;
        const settledNow = previous.value !== 'idle' && snapshot.value === 'idle';
        if (settledNow && snapshot.context.outcome) this.show(snapshot.context.outcome);
      },
    );
  }

  /** Calls seed_desk through the host. Returns the outcome it showed. */
  async call(args: string, skipSchema: boolean): Promise<ToolCallOutcome> {
    const before = this.desk.seedDeskEntryCount;
    const result = await this.connection.call({ type: 'toolCall', args, skipSchema });
    this.pendingArgs = args;
    this.pendingBefore = before;
    if (result.kind === 'approval') {
      this.outcome = result;
      this.approvalActor.send({ type: 'ASK', callId: result.callId, prompt: result.prompt });
      return result;
    }
    this.show(result);
    return result;
  }

  /** Sends the answer to the approval machine; the call finishes when it is back in `idle`. */
  answerApproval(approved: boolean): void {
    // The call runs now, so "before" is the journal as it stands when the answer is given.
    this.pendingBefore = this.desk.seedDeskEntryCount;
    this.approvalActor.send({ type: approved ? 'APPROVE' : 'DENY' });
  }

  /** `null`: no user policy for seed_desk, as in a host whose config names none. */
  async setApprovalPolicy(policy: ApprovalPolicy | null): Promise<void> {
    await this.connection.call({ type: 'setApprovalPolicy', policy });
    this.facts.note({ kind: 'policy', value: policy });
  }

  async setApprovalMode(mode: ApprovalModeView): Promise<void> {
    await this.connection.call({ type: 'setApprovalMode', mode });
    this.facts.note({ kind: 'approval-mode', value: mode });
  }

  async setInteractive(interactive: boolean): Promise<void> {
    await this.connection.call({ type: 'setInteractive', interactive });
    this.facts.note({ kind: 'interactive', value: interactive });
  }

  private show(outcome: ToolCallOutcome): void {
    this.facts.note({ kind: 'tool', args: this.pendingArgs, outcome, deskEntries: { before: this.pendingBefore, after: this.desk.seedDeskEntryCount } });
    this.outcome = outcome;
    if (outcome.kind === 'result' && outcome.details?.revision) this.latestRevision = outcome.details.revision;
  }
}
