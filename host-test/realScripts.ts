/**
 * The real host's side of the differential (Bun): each action script in a fresh session, traced
 * step by step; then the session file the host wrote is reopened in the host, and the playground's
 * exports (written by playground.ts before this runs) are opened in the host. Everything observed
 * goes to host-test/out/diff/ for playground.ts to compare.
 */
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { readDesk } from '../extension/deskState';
import type { ExtensionContext, HostEntry } from '../extension/host';
import { openSession, persist, type ApprovalMode, type CommandRun, type Harness, type UserPolicy } from './omp';
import type { Checks } from './report';
import type { AgentStepper } from '../domain/agents/stepper';
import { appendedName, describeStep, driveAgent, normalizeTrace, Revisions, Seen, VALID_AFTER_CORRUPT, type DeskView, type Meanwhile, type Move, type Outcome, type Said, type Script, type Step, type StepTrace, type ToolStep } from './script';

const DESK = 'seed-desk-state-v1';

/** What the host holds when a file is opened: the desk at the leaf and the /seeds query answer. */
export interface OpenedView {
  readonly desk: DeskView;
  readonly query: string;
}

function observer(h: Harness): ExtensionContext {
  return { sessionManager: h.sm, hasUI: false, ui: { confirm: async () => false, notify: () => {}, setStatus: () => {} } };
}

function deskView(h: Harness): DeskView {
  const state = readDesk(observer(h));
  return state.ok
    ? { revision: state.revision, ok: true, agentEnabled: state.snapshot.agentEnabled, quantities: state.snapshot.quantities }
    : { revision: state.revision, ok: false, agentEnabled: null, quantities: null };
}

const isDesk = (entry: HostEntry) => entry.type === 'custom' && entry['customType'] === DESK;
const isUserMessage = (entry: HostEntry | undefined) => entry?.type === 'message' && (entry['message'] as { role?: unknown } | undefined)?.role === 'user';

/** What a `/seeds` run returned, in the trace's terms (the same reading as the worker's extensionOutcome). */
export function commandOutcome(run: CommandRun | undefined): Outcome {
  if (!run) return { kind: 'command', result: 'none' };
  if (!run.ok) return { kind: 'command', result: 'error' };
  const value = run.value as { kind?: unknown; code?: unknown; revision?: unknown; change?: unknown } | null;
  const result = typeof value?.kind === 'string' ? value.kind : 'notice';
  switch (result) {
    case 'answer':
      return { kind: 'command', result, revision: String(value!.revision) };
    case 'refused':
      return { kind: 'command', result, code: String(value!.code), change: value!.change ?? null };
    case 'cancelled':
      return { kind: 'command', result, change: value!.change };
    case 'committed':
      return { kind: 'command', result, revision: String(value!.revision), change: value!.change };
    default:
      return { kind: 'command', result };
  }
}

class RealRunner {
  private readonly marks = new Map<string, string | null>();
  readonly revisions = new Revisions();
  readonly sessions = new Seen();
  readonly desks = new Seen();
  private mode: ApprovalMode = 'yolo';
  private policy: UserPolicy | null = null;
  private twins = 0;
  private agent: AgentStepper | null = null;

  constructor(
    public h: Harness,
    private readonly runDir: string,
    private readonly dir: (name: string) => string,
  ) {
    this.note(h);
  }

  private note(h: Harness): void {
    this.sessions.add([h.sm.getSessionId()]);
    this.desks.add(h.deskEntries().map((entry) => entry.id));
    this.revisions.noteDesk(deskView(h).revision);
  }

  /** The revision of the newest seed desk entry that is not on the branch (file order). */
  private offBranch(): string | null {
    const onBranch = new Set(this.h.sm.getBranch().map((entry) => entry.id));
    const other = this.h.deskEntries().filter((entry) => !onBranch.has(entry.id)).at(-1);
    return other ? `${this.h.sm.getSessionId()}:${other.id}` : null;
  }

  private async tool(step: ToolStep): Promise<Outcome> {
    const h = this.h;
    h.answers = { ...h.answers, select: () => (step.approve === false ? 'Deny' : 'Approve') };
    const call = await h.call(this.revisions.fill(step.tool, () => this.offBranch()));
    this.revisions.noteResult(call.details);
    return { kind: 'tool', ...call };
  }

  /**
   * A move that appends nothing, as a session-tree selection: `navigateTree` (the extension hears
   * `session_tree`). `exact`: the leaf goes onto the target itself; the host's /tree puts it on a
   * user message's parent instead, so such a target is reached with the session manager's branch().
   */
  private async moveTo(target: string | null, exact: boolean): Promise<void> {
    const h = this.h;
    if (target === null) {
      h.sm.resetLeaf();
      return;
    }
    const entry = h.sm.getEntries().find((candidate) => candidate.id === target);
    if (exact && isUserMessage(entry)) h.sm.branch(target);
    else await h.session.navigateTree(target, { summarize: false });
  }

  private async move(move: Move): Promise<void> {
    const h = this.h;
    if (move === 'back') {
      const leaf = h.sm.getLeafId();
      if (leaf === null) return;
      const parent = h.sm.getEntries().find((entry) => entry.id === leaf)?.parentId ?? null;
      await this.moveTo(parent, true);
      return;
    }
    const last = [...h.sm.getBranch()].reverse().find(isDesk);
    if (!last?.parentId) throw new Error('There is no reservation on this branch to go back before.');
    await this.moveTo(last.parentId, false);
  }

  private async meanwhile(what: Meanwhile, answerAtOnce: { on: boolean }): Promise<Outcome> {
    if ('tool' in what) return this.tool(what);
    if ('move' in what) {
      await this.move(what.move);
      return { kind: 'none' };
    }
    // A second client that has already said yes: its own dialog is answered at once.
    const runs = this.h.commandRuns.length;
    answerAtOnce.on = true;
    try {
      await this.h.command(`/seeds reserve ${what.reserve.id} ${what.reserve.packets}`);
    } finally {
      answerAtOnce.on = false;
    }
    return commandOutcome(this.h.commandRuns.slice(runs).at(-1));
  }

  async step(step: Step, label?: string): Promise<StepTrace> {
    let h = this.h;
    const saidFrom = h.ui.said.length;
    const before = new Set(h.sm.getEntries().map((entry) => entry.id));
    const said: Said[] = [];
    let outcome: Outcome = { kind: 'none' };
    let meanwhile: Outcome | undefined;
    let dialog: StepTrace['dialog'] = null;
    if ('command' in step) {
      const runs = h.commandRuns.length;
      const answerAtOnce = { on: false };
      h.answers = {
        ...h.answers,
        confirm: async () => {
          if (answerAtOnce.on) return true;
          const asked = h.ui.confirms.at(-1)!;
          dialog = { title: asked.title, message: asked.message };
          if (step.meanwhile) meanwhile = await this.meanwhile(step.meanwhile, answerAtOnce);
          return step.confirm ?? true;
        },
      };
      await h.command(step.command);
      outcome = commandOutcome(h.commandRuns.slice(runs).at(-1));
    } else if ('tool' in step) {
      outcome = await this.tool(step);
    } else if ('say' in step) {
      h.sm.appendMessage({ role: 'user', content: [{ type: 'text', text: step.say }], timestamp: Date.now() });
    } else if ('mark' in step) {
      this.marks.set(step.mark, h.sm.getLeafId());
    } else if ('leaf' in step) {
      const target = this.marks.get(step.leaf);
      if (target === undefined) throw new Error(`no mark ${step.leaf}`);
      await this.moveTo(target, true);
    } else if ('move' in step) {
      await this.move(step.move);
    } else if ('corrupt' in step) {
      h.sm.appendCustomEntry(DESK, { version: 1, agentEnabled: false, quantities: { 'basil-genovese': 99 } });
      if (step.corrupt === 'then-valid') h.sm.appendCustomEntry(DESK, structuredClone(VALID_AFTER_CORRUPT));
    } else if ('agent' in step || 'agentContinue' in step) {
      const run = await driveAgent(this.agent, step, (args) => this.tool({ tool: args }));
      this.agent = run.agent;
      outcome = run.outcome;
    } else if ('approval' in step) {
      this.setApproval(step.approval.mode, step.approval.policy);
    } else if ('policy' in step) {
      this.setApproval(this.mode, step.policy);
    } else if ('approvalMode' in step) {
      this.setApproval(step.approvalMode, this.policy);
    } else if ('headless' in step) {
      await h.setHeadless(step.headless);
    } else if ('reopen' in step) {
      // A new host process on the same file: persisted, closed, opened again, the UI as it was.
      const file = await persist(h);
      said.push(...h.ui.said.slice(saidFrom));
      await h.close();
      h = this.h = await openSession({ dir: this.runDir, file, headless: h.headless, approvalMode: this.mode, policy: this.policy });
      said.push(...h.ui.said);
    } else if ('newSession' in step) {
      await h.session.newSession();
    } else {
      // Another tab: another host on the same session file, standing before the last reservation.
      const file = await persist(h);
      const twin = await openSession({ dir: this.dir(`twin-${++this.twins}`), file, approvalMode: this.mode, policy: this.policy });
      try {
        const twinBefore = new Set(twin.sm.getEntries().map((entry) => entry.id));
        const last = [...twin.sm.getBranch()].reverse().find(isDesk);
        if (last?.parentId) await twin.session.navigateTree(last.parentId, { summarize: false });
        const runs = twin.commandRuns.length;
        twin.answers = { ...twin.answers, confirm: () => true };
        await twin.command(step.twinTab.command);
        const asked = twin.ui.confirms.at(-1);
        dialog = asked ? { title: asked.title, message: asked.message } : null;
        outcome = commandOutcome(twin.commandRuns.slice(runs).at(-1));
        said.push(...twin.ui.said);
        this.desks.add(twin.deskEntries().map((entry) => entry.id));
        // What the twin appended, in its file order (this host never sees it: no tab sync here).
        const appended = twin.sm.getEntries().filter((entry) => !twinBefore.has(entry.id)).flatMap((entry) => appendedName(entry) ?? []);
        this.note(h);
        return this.trace(step, label, { dialog, said, outcome, appended });
      } finally {
        await twin.close();
      }
    }
    if (!('reopen' in step)) said.push(...h.ui.said.slice(saidFrom));
    const appended = h.sm.getEntries().filter((entry) => !before.has(entry.id)).flatMap((entry) => appendedName(entry) ?? []);
    this.note(h);
    return this.trace(step, label, { dialog, said, outcome, appended, ...(meanwhile ? { meanwhile } : {}) });
  }

  private trace(step: Step, label: string | undefined, seen: Pick<StepTrace, 'dialog' | 'said' | 'outcome' | 'appended' | 'meanwhile'>): StepTrace {
    const h = this.h;
    const branchDesk = h.sm.getBranch().filter(isDesk).map((entry) => entry['data']);
    return { step: describeStep(step, label), ...seen, status: h.status(), desk: deskView(h), branchDesk };
  }

  private setApproval(mode: ApprovalMode, policy: UserPolicy | null): void {
    this.mode = mode;
    this.policy = policy;
    this.h.settings.set('tools.approvalMode', mode);
    this.h.settings.set('tools.approval', policy === null ? {} : { seed_desk: policy });
  }
}

async function openedView(dir: string, file: string): Promise<OpenedView> {
  const h = await openSession({ dir, file });
  try {
    await h.command('/seeds query');
    return { desk: deskView(h), query: h.ui.notes.at(-1)?.message ?? '' };
  } finally {
    await h.close();
  }
}

export async function realDifferential(checks: Checks, scripts: readonly Script[], outDir: string, dir: (name: string) => string): Promise<void> {
  for (const script of scripts) {
    await checks.run(`differential (real host run): script "${script.name}", ${script.steps.length} steps, traced`, async () => {
      const runDir = dir(`diff-${script.name}`);
      const runner = new RealRunner(await openSession({ dir: runDir }), runDir, dir);
      const steps: StepTrace[] = [];
      let file: string;
      let trace;
      try {
        for (const [index, step] of script.steps.entries()) {
          try {
            steps.push(await runner.step(step, script.labels?.[index]));
          } catch (error) {
            throw new Error(`step ${index + 1} ${describeStep(step, script.labels?.[index])}: ${error instanceof Error ? error.stack : String(error)}`);
          }
        }
        // Read before closing: a disposed session no longer answers for its entries.
        runner.desks.add(runner.h.deskEntries().map((entry) => entry.id));
        trace = normalizeTrace({ script: script.name, omitted: script.omitted ?? [], steps }, runner.sessions.ids, runner.desks.ids);
        file = await persist(runner.h);
      } finally {
        await runner.h.close();
      }
      writeFileSync(`${outDir}/${script.name}.real.trace.json`, JSON.stringify(trace, null, 2));
      copyFileSync(file, `${outDir}/${script.name}.real.jsonl`);
      // Reopen a copy: the host may rewrite the file it opens, the copy for the playground stays as written.
      const reopenDir = dir(`reopen-${script.name}`);
      copyFileSync(file, `${reopenDir}/session.jsonl`);
      writeFileSync(`${outDir}/${script.name}.real.reopen.json`, JSON.stringify(await openedView(reopenDir, `${reopenDir}/session.jsonl`), null, 2));
      return `${runner.desks.ids.length} seed desk entries; file ${file.split('/').at(-1)}`;
    });
    const exported = `${outDir}/${script.name}.playground.jsonl`;
    await checks.run(`differential (real host opens the playground export): script "${script.name}"`, async () => {
      if (!existsSync(exported)) throw new Error(`${exported} is missing: the playground side did not run`);
      const openDir = dir(`open-${script.name}`);
      copyFileSync(exported, `${openDir}/session.jsonl`);
      const view = await openedView(openDir, `${openDir}/session.jsonl`);
      writeFileSync(`${outDir}/${script.name}.playground.opened.json`, JSON.stringify(view, null, 2));
      return `opened at ${view.desk.revision}`;
    });
  }
}
