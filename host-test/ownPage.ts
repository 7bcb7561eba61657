/**
 * An own extension's script on the page's host (Node, worker host on fake-indexeddb): the
 * differential's PlaygroundRunner, with the steps only own scripts use and every UI request
 * answered from the script's answers, as ownReal.ts does on the real OMP.
 *
 * The UI requests are the ones that wait on the page (`HostCore.waiting`, whoever asked: a command,
 * or a session event's handler): each is recorded and answered as it appears, while the action
 * that caused it is still running. A request the page's host answers by itself (its no-op answer)
 * is not shown to anyone, so it is not recorded; where the real OMP shows one, the traces differ.
 *
 * Where the page's host has no such action yet, the nearest it has stands in, named here:
 * `branch` is the page's Fork of the path before the message (the page offers no /branch; OMP's
 * `createBranchedSession` makes the same session), a turn is recorded as a real model's turn is
 * (`recordModelMessage`, the call through `callTool` under the model's id), with no system prompt.
 */
import type { EntryId, SessionId } from '../domain/ids';
import type { JournalEntry } from '../domain/journal/entry';
import type { LineOutcome, ModelMessage, ToolCallOutcome, UiAnswer, UiRequest } from '../web/src/protocol/messages';
import type { PlaygroundHost } from '../web/src/worker/playgroundHost';
import type { WaitingRun } from '../web/src/worker/hostCore';
import type { JournalStore } from '../web/src/worker/store';
import { Answers, CLOSING, customOnBranch, messageText, shownIds, TURN_CALL } from './ownSteps';
import { PlaygroundRunner } from './pageRunner';
import { Seen } from './runnerKit';
import { appendedName, type AskedView, type Outcome, type Step, type StepTrace } from './script';

type OwnOnly = Extract<Step, { fork: unknown } | { branch: unknown } | { switchTo: unknown } | { turn: unknown } | { newSession: unknown }>;

const MOCK = { api: 'mock', provider: 'mock', model: 'mock-model', usage: { input: 0, output: 0 } } as const;

function askedView(request: UiRequest): AskedView {
  switch (request.kind) {
    case 'confirm':
      return { kind: 'confirm', title: request.title, message: request.message };
    case 'select':
      return { kind: 'select', title: request.title, options: request.options };
    case 'input':
      return { kind: 'input', title: request.title };
    case 'editor':
      return { kind: 'editor', title: request.title, prefill: request.prefill };
  }
}

export class OwnPlaygroundRunner extends PlaygroundRunner {
  private readonly sessionAt = new Map<string, SessionId>();
  readonly entries = new Seen();
  private readonly asked: AskedView[] = [];
  private wake: (() => void) | null = null;
  private calls = 0;
  private turnCalls = 0;
  private lastCall = '';

  constructor(host: PlaygroundHost, store: JournalStore, seed: number, readonly answers: Answers) {
    super(host, store, seed);
    const waiting = host.core.waiting;
    const set = waiting.set.bind(waiting);
    // Every request that waits on the page passes here, whoever asked it.
    waiting.set = (id: string, run: WaitingRun) => {
      const request = run.run.asked?.request;
      if (request) this.asked.push(askedView(request));
      set(id, run);
      this.wake?.();
      return waiting;
    };
    this.entries.add(shownIds(host.currentJournal().entries()));
  }

  private answerOf(request: UiRequest): UiAnswer {
    const view = askedView(request);
    if (request.kind === 'confirm') return { kind: 'confirm', id: request.id, confirmed: this.answers.confirm(view) };
    const text = this.answers.text(view) ?? null;
    return request.kind === 'select' ? { kind: 'select', id: request.id, choice: text } : { kind: request.kind, id: request.id, text };
  }

  protected override confirmAnswer(request: UiRequest): boolean {
    return this.answers.confirm(askedView(request));
  }

  protected override async followAsked(line: LineOutcome): Promise<LineOutcome> {
    let next = line;
    while (next.kind === 'asked') next = await this.host.answerUi(this.answerOf(next.request));
    return next;
  }

  /** Runs a host action, answering every request that waits on the page meanwhile, until the action is done. */
  private async answering(action: Promise<unknown>): Promise<void> {
    let done = false;
    const finished = action.then(() => {
      done = true;
    });
    const waiting = this.host.core.waiting;
    for (;;) {
      // Answered one by one: an answer may let the action ask again.
      for (let first = [...waiting.values()][0]; first?.run.asked; first = [...waiting.values()][0]) await this.host.answerUi(this.answerOf(first.run.asked.request));
      if (done) return;
      const requested = new Promise<void>((resolve) => (this.wake = resolve));
      await Promise.race([finished, requested]);
    }
  }

  /** A tool other than seed_desk is called as a model calls it: the assistant message with the call first, the call under its id. */
  protected override async callTool(args: Record<string, unknown>, name?: string): Promise<ToolCallOutcome> {
    if (name === undefined) return super.callTool(args);
    const id = `call_tool_${++this.calls}`;
    await this.record({ role: 'assistant', content: [{ type: 'toolCall', id, name, arguments: args }], stopReason: 'toolUse', ...MOCK });
    this.lastCall = id;
    return this.host.callTool(JSON.stringify(args), false, { id, name });
  }

  private async record(message: ModelMessage): Promise<void> {
    const recorded = await this.host.recordModelMessage(message);
    if (recorded.kind !== 'recorded') throw new Error(`the page did not record the model's message: ${recorded.text}`);
  }

  override async step(step: Step, label?: string): Promise<StepTrace> {
    const askedFrom = this.asked.length;
    if ('mark' in step) this.sessionAt.set(step.mark, this.host.sessionId);
    const own = 'fork' in step || 'branch' in step || 'switchTo' in step || 'turn' in step || 'newSession' in step;
    let trace = own ? await this.ownStep(step, label) : await super.step(step, label);
    const journal = this.host.currentJournal();
    // The page's tool outcome carries seed_desk's details only; another tool's are read where the host recorded them.
    if ('tool' in step && step.name !== undefined && trace.outcome.kind === 'tool' && !trace.outcome.isError) trace = { ...trace, outcome: { ...trace.outcome, details: recordedDetails(journal.entries(), this.lastCall) } };
    this.entries.add(shownIds(journal.entries()));
    return { ...trace, own: { session: this.host.sessionId, asked: this.asked.slice(askedFrom), custom: customOnBranch(journal.branch()) } };
  }

  private async ownStep(step: OwnOnly, label?: string): Promise<StepTrace> {
    const host = this.host;
    const before = new Set(host.currentJournal().entries().map((entry) => entry.id));
    let outcome: Outcome = { kind: 'none' };
    if ('newSession' in step) await this.answering(host.newSession());
    else if ('fork' in step) await this.answering(host.forkSession());
    else if ('branch' in step) {
      const message = [...host.currentJournal().branch()].reverse().find((entry) => entry.type === 'message' && (entry['message'] as { role?: unknown }).role === 'user' && messageText((entry['message'] as { content?: unknown }).content) === step.branch);
      // Nowhere to branch from (the session has no such message) is an outcome, as on the real side.
      outcome = { kind: 'move', moved: message !== undefined };
      if (message) await this.answering(host.forkSession((message.parentId ?? null) as EntryId | null));
    } else if ('switchTo' in step) {
      const session = this.sessionAt.get(step.switchTo);
      if (session === undefined) throw new Error(`no session at mark ${step.switchTo}`);
      await this.answering(host.switchSession(session));
    } else outcome = await this.turn(step);
    const said = this.log.take();
    const appended = host.currentJournal().entries().filter((entry) => !before.has(entry.id)).flatMap((entry) => appendedName(entry) ?? []);
    this.note();
    return this.trace(step, label, { dialog: null, said: said.said, outcome, appended }, said.pageOnly);
  }

  /** The scripted model's turn, recorded as the page records a real model's. */
  private async turn(step: Extract<Step, { turn: unknown }>): Promise<Outcome> {
    const host = this.host;
    const record = (message: ModelMessage) => this.record(message);
    // As the page's model loop does a request (web/src/model/modelLoop.ts): the run's agent events
    // start before the request is recorded and end after its last reply (omp/agentRun.ts).
    const { startAgent, endAgent } = await import('../web/src/worker/omp/agentRun');
    await startAgent(host.core, step.turn, '');
    try {
      return await this.turnMessages(step, record);
    } finally {
      await endAgent(host.core);
    }
  }

  private async turnMessages(step: Extract<Step, { turn: unknown }>, record: (message: ModelMessage) => Promise<unknown>): Promise<Outcome> {
    const host = this.host;
    await record({ role: 'user', text: step.turn });
    const calls: { isError: boolean; text: string }[] = [];
    if (step.call) {
      const id = `${TURN_CALL}${++this.turnCalls}`;
      await record({ role: 'assistant', content: [{ type: 'toolCall', id, name: step.call.name, arguments: step.call.args }], stopReason: 'toolUse', ...MOCK });
      let result = await host.callTool(JSON.stringify(step.call.args), false, { id, name: step.call.name });
      if (result.kind === 'approval') result = await host.answerApproval(result.callId, true);
      if (result.kind !== 'result') throw new Error(`the turn's call did not finish: ${JSON.stringify(result)}`);
      calls.push({ isError: result.isError, text: result.text });
    }
    await record({ role: 'assistant', content: [{ type: 'text', text: CLOSING }], stopReason: 'stop', ...MOCK });
    // The page's turn sends no system prompt: there is nothing an extension's before_agent_start could add to.
    return { kind: 'turn', calls, systemPromptAdded: '' };
  }
}

/** A tool result's details as the host recorded them in the journal (null: none). */
function recordedDetails(entries: readonly JournalEntry[], callId: string): unknown {
  const entry = entries.find((each) => each.type === 'message' && (each['message'] as { toolCallId?: unknown }).toolCallId === callId);
  return (entry?.['message'] as { details?: unknown } | undefined)?.details ?? null;
}
