import type { ApprovalModeView, ApprovalPolicy, ModelCallRef, ToolCallOutcome } from '../protocol/messages';
import { loadDialogActors } from './loadDialogActors';
import type { Connection } from './connection.svelte';
import type { Desk } from './desk.svelte';
import type { ApprovalActor, ApprovalSnapshot } from './dialogActors';
import type { FactLog } from './facts.svelte';
import type { ToolCaller } from '../tutorial/facts';

/**
 * The seed_desk tool as a model would call it through the host (schema, approval, domain), the
 * host's approval prompt (its machine), and the host settings that decide it: the user policy,
 * the approval mode and whether a UI is attached.
 *
 * The approval machine (and XState) is not in the first screen: its code loads at the first call,
 * and its actor starts the first time a call needs approval. Until then `approval` is undefined,
 * which the views read as idle.
 */
export class ToolCalls {
  /** The last seed_desk outcome, shown as text and details. */
  outcome = $state.raw<ToolCallOutcome | null>(null);
  /** The revision from the latest tool result: "use latest revision" fills it in; nothing refreshes it silently. */
  latestRevision = $state.raw<string | null>(null);
  approval = $state.raw<ApprovalSnapshot>();
  private pendingArgs = '';
  private pendingBefore = 0;
  private pendingBy: ToolCaller = 'you';
  private actor: ApprovalActor | undefined;

  constructor(
    private readonly connection: Connection,
    private readonly desk: Desk,
    private readonly facts: FactLog,
  ) {}

  /** The approval machine's actor: there once a call has needed approval (answers come after that). */
  get approvalActor(): ApprovalActor {
    if (!this.actor) throw new Error('No tool call has asked for approval yet.');
    return this.actor;
  }

  /** Starts the approval actor the first time a call needs approval. */
  private async startApproval(): Promise<ApprovalActor> {
    if (this.actor) return this.actor;
    const { startApproval } = await loadDialogActors();
    this.actor ??= startApproval((snapshot) => (this.approval = snapshot));
    return this.actor;
  }

  /**
   * Calls seed_desk through the host. Returns the outcome it showed. `modelCall`: a real model's
   * call, already in the assistant message the page recorded; its result goes under the model's id.
   * `agent`: a scripted agent's call (the goals tell who called: issue 36).
   */
  async call(args: string, skipSchema: boolean, modelCall?: ModelCallRef, agent?: 'careful' | 'careless'): Promise<ToolCallOutcome> {
    const before = this.desk.seedDeskEntryCount;
    // A call may need approval: its machine's code loads while the worker answers (once).
    if (!this.actor) loadDialogActors().catch(() => undefined);
    const result = await this.connection.call({ type: 'toolCall', args, skipSchema, ...(modelCall ? { call: modelCall } : {}) });
    this.pendingArgs = args;
    this.pendingBefore = before;
    this.pendingBy = modelCall ? 'model' : (agent ?? 'you');
    if (result.kind === 'approval') {
      this.outcome = result;
      let approval: ApprovalActor;
      try {
        approval = await this.startApproval();
      } catch (error) {
        const failed: ToolCallOutcome = { kind: 'failed', text: `The approval prompt could not load: ${error instanceof Error ? error.message : String(error)}` };
        this.outcome = failed;
        return failed;
      }
      approval.send({ type: 'ASK', callId: result.callId, prompt: result.prompt });
      return result;
    }
    this.show(result);
    return result;
  }

  /** A call as an agent makes it: when the host asks for approval, the answer comes from the learner and this resolves with the call's end. */
  async callToEnd(args: string, skipSchema: boolean, modelCall?: ModelCallRef, agent?: 'careful' | 'careless'): Promise<ToolCallOutcome> {
    const outcome = await this.call(args, skipSchema, modelCall, agent);
    if (outcome.kind !== 'approval') return outcome;
    const actor = this.approvalActor;
    return new Promise((resolve) => {
      const subscription = actor.subscribe((snapshot) => {
        if (snapshot.value === 'idle' && snapshot.context.outcome && snapshot.context.callId === outcome.callId) {
          subscription.unsubscribe();
          resolve(snapshot.context.outcome);
        }
      });
    });
  }

  /** The learner's answer to the approval prompt: the machine moves to `answering`, the answer goes to the host, and the call's end settles the machine. */
  async answerApproval(approved: boolean): Promise<void> {
    const actor = this.actor;
    const event = { type: approved ? 'APPROVE' : 'DENY' } as const;
    const callId = actor?.getSnapshot().context.callId;
    if (!actor || !callId || !actor.getSnapshot().can(event)) return;
    // The call runs now, so "before" is the journal as it stands when the answer is given.
    this.pendingBefore = this.desk.seedDeskEntryCount;
    actor.send(event);
    let outcome: ToolCallOutcome;
    try {
      outcome = await this.connection.call({ type: 'answerApproval', callId, approved });
    } catch (error) {
      actor.send({ type: 'FAILED', error: error instanceof Error ? error.message : String(error) });
      const failed = actor.getSnapshot().context.outcome;
      if (failed) this.show(failed);
      return;
    }
    actor.send({ type: 'SETTLED', outcome });
    this.show(outcome);
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
    const by = this.pendingBy === 'you' ? {} : { by: this.pendingBy };
    this.facts.note({ kind: 'tool', args: this.pendingArgs, outcome, deskEntries: { before: this.pendingBefore, after: this.desk.seedDeskEntryCount }, ...by });
    this.outcome = outcome;
    if (outcome.kind === 'result' && outcome.details?.revision) this.latestRevision = outcome.details.revision;
  }
}
