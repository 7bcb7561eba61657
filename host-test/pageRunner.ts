/**
 * The playground's runner of the differential (Node): one script step at a time on the worker host
 * (web/src/worker/playgroundHost.ts on fake-indexeddb), traced in the shape realRunner.ts traces the real OMP.
 */
import { seededIdSource, type EntryId } from '../domain/ids';
import { isSeedDeskEntry, type JournalEntry } from '../domain/journal/entry';
import type { AgentStepper } from '../domain/agents/stepper';
import { isConfirmAsked, type LineOutcome, type ToolCallOutcome, type UiRequest } from '../web/src/protocol/messages';
import { PlaygroundHost } from '../web/src/worker/playgroundHost';
import { resolveTarget } from '../web/src/worker/projections';
import type { JournalStore } from '../web/src/worker/store';
import './pageEdits';
import { driveAgent, Revisions, Seen } from './runnerKit';
import { appendedName, describeStep, type DeskView, type Meanwhile, type Move, type Outcome, type Said, type Step, type StepTrace, type ToolStep } from './script';

const DESK = 'seed-desk-state-v1';

export function deskView(host: PlaygroundHost): DeskView {
  const state = host.currentJournal().state();
  return state.ok
    ? { revision: state.revision, ok: true, agentEnabled: state.snapshot.agentEnabled, quantities: state.snapshot.quantities }
    : { revision: state.revision, ok: false, agentEnabled: null, quantities: null };
}

/** A line's outcome in the trace's terms: the kind and data the worker read from the handler's return. */
export function lineOutcome(line: LineOutcome): Outcome {
  switch (line.kind) {
    case 'answer':
      return { kind: 'command', result: 'answer', revision: line.query.revision };
    case 'refused':
      return { kind: 'command', result: 'refused', code: line.code, change: line.change };
    case 'cancelled':
      return { kind: 'command', result: 'cancelled', change: line.change };
    case 'committed':
      return { kind: 'command', result: 'committed', revision: line.revision, change: line.change };
    default:
      return { kind: 'command', result: line.kind };
  }
}

/**
 * What a host's event log shows during a step: its notifications and events, in order. The
 * host's own notices (reopen, new session, storage) are told apart from the extension's
 * notifies by watching `notified`, the one path extension code notifies through.
 */
class LogWatch {
  private from: number;
  private readonly pageOnlySeqs = new Set<number>();

  constructor(private readonly host: PlaygroundHost) {
    const core = host.core;
    this.from = core.events.lastSeq;
    const notified = core.notified.bind(core);
    const notify = core.notify.bind(core);
    let fromExtension = false;
    core.notified = (notice) => {
      fromExtension = true;
      try {
        notified(notice);
      } finally {
        fromExtension = false;
      }
    };
    core.notify = (level, text) => {
      notify(level, text);
      if (!fromExtension) this.pageOnlySeqs.add(core.events.lastSeq);
    };
  }

  /** What was said since the last take; the page's own notices apart. */
  take(): { said: Said[]; pageOnly: string[] } {
    const core = this.host.core;
    const items = core.events.since(this.from);
    // The log is bounded: its oldest item past the last take means items fell off. (Events a failed
    // write announced are retracted on purpose, dropEventsAfter: those are not missing.)
    const oldest = core.events.all()[0];
    if (oldest && oldest.seq > this.from + 1) throw new Error('the event log dropped items within one step');
    this.from = core.events.lastSeq;
    const said: Said[] = [];
    const pageOnly: string[] = [];
    for (const item of items) {
      if (item.kind === 'event') said.push({ event: item.channel, payload: JSON.parse(item.payload) as unknown });
      else if (this.pageOnlySeqs.has(item.seq)) pageOnly.push(`${item.level}: ${item.text}`);
      else said.push({ notify: item.level, text: item.text });
    }
    return { said, pageOnly };
  }
}

export class PlaygroundRunner {
  private readonly marks = new Map<string, EntryId | null>();
  readonly revisions = new Revisions();
  readonly sessions = new Seen();
  readonly desks = new Seen();
  protected readonly log: LogWatch;
  private twins = 0;
  private agent: AgentStepper | null = null;

  constructor(
    protected readonly host: PlaygroundHost,
    private readonly store: JournalStore,
    private readonly seed: number,
  ) {
    this.log = new LogWatch(host);
    this.note();
  }

  protected note(): void {
    const journal = this.host.currentJournal();
    this.sessions.add([this.host.sessionId]);
    this.desks.add(journal.entries().filter(isSeedDeskEntry).map((entry) => entry.id));
    this.revisions.noteDesk(deskView(this.host).revision);
  }

  /** The revision of the newest seed desk entry off the branch, as the Compare panel finds it. */
  private offBranch(): string | null {
    const journal = this.host.currentJournal();
    const found = resolveTarget(journal, { by: 'newest-off-branch' });
    return found.ok ? journal.revision(found.id) : null;
  }

  /** A command's confirm when the step names no answer, and its further requests: own extensions answer from their script (ownPage.ts). */
  protected confirmAnswer(_request: UiRequest): boolean {
    return true;
  }
  protected followAsked(line: LineOutcome): Promise<LineOutcome> {
    return Promise.resolve(line);
  }

  /** seed_desk as the Tool call panel calls it; another tool only as a model calls it (ownPage.ts). */
  protected callTool(args: Record<string, unknown>, _name?: string): Promise<ToolCallOutcome> {
    return this.host.callTool(JSON.stringify(args), false);
  }

  private async tool(step: ToolStep): Promise<Outcome> {
    const args = this.revisions.fill(step.tool, () => this.offBranch());
    let outcome: ToolCallOutcome = await this.callTool(args, step.name);
    let prompt: string | null = null;
    if (outcome.kind === 'approval') {
      prompt = outcome.prompt;
      outcome = await this.host.answerApproval(outcome.callId, step.approve !== false);
    }
    if (outcome.kind !== 'result') throw new Error(`tool call failed: ${JSON.stringify(outcome)}`);
    this.revisions.noteResult(outcome.details);
    return { kind: 'tool', prompt, isError: outcome.isError, text: outcome.text, details: outcome.details };
  }

  /** False when there is nowhere to go (the page then says why and moves nothing). */
  private move(move: Move): boolean {
    if (move === 'back') {
      if (this.host.currentJournal().leafId === null) return false;
      this.host.stepBack();
      return true;
    }
    if (!resolveTarget(this.host.currentJournal(), { by: 'before-last-reservation' }).ok) return false;
    this.host.navigate({ by: 'before-last-reservation' });
    return true;
  }

  private async meanwhile(what: Meanwhile): Promise<Outcome> {
    if ('tool' in what) return this.tool(what);
    if ('move' in what) {
      this.move(what.move);
      return { kind: 'none' };
    }
    return lineOutcome(await this.host.meanwhileReserve(what.reserve.id, what.reserve.packets));
  }

  async step(step: Step, label?: string): Promise<StepTrace> {
    const host = this.host;
    const before = new Set(host.currentJournal().entries().map((entry) => entry.id));
    let outcome: Outcome = { kind: 'none' };
    let meanwhile: Outcome | undefined;
    let dialog: StepTrace['dialog'] = null;
    const pageOnly: string[] = [];
    if ('command' in step) {
      let line = await host.runLine(step.command);
      if (isConfirmAsked(line)) {
        dialog = { title: line.request.title, message: line.request.message };
        if (step.meanwhile) meanwhile = await this.meanwhile(step.meanwhile);
        line = await host.answerUi({ kind: 'confirm', id: line.request.id, confirmed: step.confirm ?? this.confirmAnswer(line.request) });
      }
      line = await this.followAsked(line);
      if (line.kind === 'failed' || line.kind === 'said') pageOnly.push(`${line.kind}: ${line.text}`);
      outcome = lineOutcome(line);
    } else if ('tool' in step) {
      outcome = await this.tool(step);
    } else if ('say' in step) {
      const said = await host.runLine(step.say);
      if (said.kind !== 'said') throw new Error(`say: ${JSON.stringify(said)}`);
    } else if ('mark' in step) {
      this.marks.set(step.mark, host.currentJournal().leafId);
    } else if ('leaf' in step) {
      const target = this.marks.get(step.leaf);
      if (target === undefined) throw new Error(`no mark ${step.leaf}`);
      host.moveLeaf(target);
    } else if ('move' in step) {
      outcome = { kind: 'move', moved: this.move(step.move) };
    } else if ('corrupt' in step) {
      const line = await host.appendCorruptSnapshot(step.corrupt === 'then-valid' ? 'valid' : undefined);
      pageOnly.push(`${line.kind}: ${line.text}`);
    } else if ('agent' in step || 'agentContinue' in step) {
      const run = await driveAgent(this.agent, step, (args) => this.tool({ tool: args }));
      this.agent = run.agent;
      outcome = run.outcome;
    } else if ('approval' in step) {
      host.setApprovalMode(step.approval.mode);
      host.setApprovalPolicy(step.approval.policy);
    } else if ('policy' in step) {
      host.setApprovalPolicy(step.policy);
    } else if ('approvalMode' in step) {
      host.setApprovalMode(step.approvalMode);
    } else if ('headless' in step) {
      host.setInteractive(!step.headless);
    } else if ('reopen' in step) {
      await host.reopen();
      outcome = { kind: 'reopened', found: true };
    } else if ('newSession' in step) {
      await host.newSession();
    } else if ('pageOnly' in step) {
      if (step.read === 'journal') outcome = { kind: 'journal', ...seedDeskLines(host) };
      else if (step.read === 'other-branch') outcome = otherBranch(host);
    } else if ('extension' in step) {
      if (step.extension === 'edited') {
        const run = await host.runEdited(step.files, () => {});
        if (run.kind !== 'running') throw new Error(`"Run my version" did not run: ${JSON.stringify(run)}`);
      } else {
        await host.useShipped();
      }
      outcome = { kind: 'extension', running: host.core.extensionKind };
    } else if ('failNextWrite' in step) {
      host.injectFault('abort');
      outcome = { kind: 'fault', armed: true };
    } else if ('twinTab' in step) return this.twinTab(step, label);
    else throw new Error(`${describeStep(step)} runs on an own extension's runner only (ownPage.ts)`);
    const said = this.log.take();
    const appended = host.currentJournal().entries().filter((entry) => !before.has(entry.id)).flatMap((entry) => appendedName(entry) ?? []);
    this.note();
    return this.trace(step, label, { dialog, said: said.said, outcome, appended, ...(meanwhile ? { meanwhile } : {}) }, [...said.pageOnly, ...pageOnly]);
  }

  /** Another tab: a second worker host on the same database, as the closing question's "Do it for me" plays it. */
  private async twinTab(step: Extract<Step, { twinTab: unknown }>, label?: string): Promise<StepTrace> {
    const twin = await PlaygroundHost.start(this.store, seededIdSource(this.seed * 10 + ++this.twins));
    const log = new LogWatch(twin);
    twin.onAppended = (sessionId, entries) => this.host.adoptForeign(sessionId, entries);
    const before = new Set(twin.currentJournal().entries().map((entry) => entry.id));
    try {
      twin.navigate({ by: 'before-last-reservation' });
    } catch {
      // The page's twin goes on from where it stands when there is nothing to go back before.
    }
    let line = await twin.runLine(step.twinTab.command);
    let dialog: StepTrace['dialog'] = null;
    if (isConfirmAsked(line)) {
      dialog = { title: line.request.title, message: line.request.message };
      line = await twin.answerUi({ kind: 'confirm', id: line.request.id, confirmed: true });
    }
    const said = log.take();
    const appended = twin.currentJournal().entries().filter((entry) => !before.has(entry.id)).flatMap((entry) => appendedName(entry) ?? []);
    this.desks.add(twin.currentJournal().entries().filter(isSeedDeskEntry).map((entry) => entry.id));
    this.log.take();
    this.note();
    return this.trace(step, label, { dialog, said: said.said, outcome: lineOutcome(line), appended }, said.pageOnly);
  }

  protected trace(step: Step, label: string | undefined, seen: Pick<StepTrace, 'dialog' | 'said' | 'outcome' | 'appended' | 'meanwhile'>, pageOnly: string[]): StepTrace {
    const host = this.host;
    const branchDesk = host.currentJournal().branch().filter(isSeedDeskEntry).map((entry) => entry['data']);
    return {
      step: describeStep(step, label),
      ...seen,
      status: host.view().status,
      desk: deskView(host),
      branchDesk,
      hostFile: host.view().hostFileWritten,
      writeFailure: host.core.writeFailure !== null,
      ...(pageOnly.length > 0 ? { pageOnly } : {}),
    };
  }
}

/** The Journal panel's count of seed desk lines, and in the host file, which the page says is written or not (null). */
function seedDeskLines(host: PlaygroundHost): { readonly seedDeskLines: number; readonly inFile: number | null } {
  const count = host.exportSession().jsonl.split('\n').filter((line) => line.includes(`"customType":"${DESK}"`)).length;
  return { seedDeskLines: count, inFile: host.view().hostFileWritten ? count : null };
}

/** The Compare panel's two desks, each rebuilt from its own branch. */
function otherBranch(host: PlaygroundHost): Outcome {
  const journal = host.currentJournal();
  const newestData = (entries: readonly JournalEntry[]) => entries.filter(isSeedDeskEntry).at(-1)?.['data'] ?? null;
  const other = resolveTarget(journal, { by: 'newest-off-branch' });
  return { kind: 'other-branch', here: newestData(journal.branch()), other: other.ok ? newestData(journal.branch(other.id)) : null };
}
