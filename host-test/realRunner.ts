/**
 * The real host's runner of the differential (Bun): one script step at a time in the real OMP,
 * traced in the shape playground.ts traces the worker host. Exits and reopens as the host does
 * (dispose, then `SessionManager.open` on the file if the host wrote one); nothing is forced to disk.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AgentStepper } from '../domain/agents/stepper';
import { openSession, type ApprovalMode, type Harness, type UserPolicy } from './omp';
import type { OpenOptions } from './ompTypes';
import type { HostNote, NotedStep } from './hostNotes';
import { branchPair, fileDeskLines, fileView } from './realFile';
import { commandOutcome, deskView, isDesk, isUserMessage, newestOffBranch } from './realReads';
import { driveAgent, Revisions, Seen } from './runnerKit';
import { appendedName, describeStep, VALID_AFTER_CORRUPT, type Meanwhile, type Move, type Outcome, type Said, type Step, type StepTrace, type ToolStep } from './script';
import { WriteFault, writeLatched } from './storageFault';

const DESK = 'seed-desk-state-v1';
const VARIANTS = fileURLToPath(new URL('./out/variants', import.meta.url));

type Observed = Pick<StepTrace, 'dialog' | 'said' | 'outcome' | 'appended' | 'meanwhile'>;

export class RealRunner {
  private readonly marks = new Map<string, string | null>();
  readonly revisions = new Revisions();
  readonly sessions = new Seen();
  readonly desks = new Seen();
  private mode: ApprovalMode = 'yolo';
  private policy: UserPolicy | null = null;
  private twins = 0;
  private agent: AgentStepper | null = null;
  private running: 'edited' | 'shipped' = 'shipped';
  private fault: WriteFault | null = null;

  constructor(
    public h: Harness,
    private readonly runDir: string,
    private readonly dir: (name: string) => string,
  ) {
    this.note(h);
  }

  protected note(h: Harness): void {
    this.sessions.add([h.sm.getSessionId()]);
    this.desks.add(h.deskEntries().map((entry) => entry.id));
    this.revisions.noteDesk(deskView(h).revision);
  }

  /** The answer to a command's own confirm when the step names none (an own extension's runner takes it from the script's answers). */
  protected confirmAnswer(_title: string): boolean {
    return true;
  }

  private async tool(step: ToolStep): Promise<Outcome> {
    const h = this.h;
    h.answers = { ...h.answers, select: () => (step.approve === false ? 'Deny' : 'Approve') };
    const call = await h.call(this.revisions.fill(step.tool, () => newestOffBranch(h)?.revision ?? null), step.name);
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

  /** False when there is nowhere to go (no entry to step back from, no reservation to go before). */
  private async move(move: Move): Promise<boolean> {
    const h = this.h;
    if (move === 'back') {
      const leaf = h.sm.getLeafId();
      if (leaf === null) return false;
      const parent = h.sm.getEntries().find((entry) => entry.id === leaf)?.parentId ?? null;
      await this.moveTo(parent, true);
      return true;
    }
    const last = [...h.sm.getBranch()].reverse().find(isDesk);
    if (!last?.parentId) return false;
    await this.moveTo(last.parentId, false);
    return true;
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

  /** The harness replaced (a reopen, an extension swapped in): what the old one said, then the new one's start. */
  private async replace(open: () => Promise<Harness>, said: Said[], saidFrom: number): Promise<void> {
    said.push(...this.h.ui.said.slice(saidFrom));
    this.h = await open();
    said.push(...this.h.ui.said);
  }

  async step(step: Step, label?: string): Promise<NotedStep> {
    const h = this.h;
    const saidFrom = h.ui.said.length;
    const before = new Set(h.sm.getEntries().map((entry) => entry.id));
    const said: Said[] = [];
    let replaced = false;
    let outcome: Outcome = { kind: 'none' };
    let meanwhile: Outcome | undefined;
    let dialog: StepTrace['dialog'] = null;
    let note: Partial<HostNote> = {};
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
          return step.confirm ?? this.confirmAnswer(asked.title);
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
      outcome = { kind: 'move', moved: await this.move(step.move) };
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
      // The host exits (dispose: `session_exit` once there is an assistant message) and a new
      // process opens the session's file, if the host wrote one; else it starts a new session.
      const file = h.sm.getSessionFile();
      await h.close();
      // After the dispose: what its `session_shutdown` handlers said belongs to this step too.
      said.push(...h.ui.said.slice(saidFrom));
      this.fault?.dispose();
      this.fault = null;
      const found = file !== undefined && existsSync(file);
      this.h = await openSession({ dir: this.runDir, ...(found ? { file } : {}), headless: h.headless, approvalMode: this.mode, policy: this.policy, ...this.variant() });
      said.push(...this.h.ui.said);
      replaced = true;
      outcome = { kind: 'reopened', found };
    } else if ('newSession' in step) {
      await h.session.newSession();
    } else if ('pageOnly' in step) {
      if (step.read === 'journal') outcome = { kind: 'journal', ...seedDeskLines(h) };
      else if (step.read === 'other-branch') {
        outcome = { kind: 'other-branch', ...branchPair(h.sm) };
        note = { file: await fileView(h.sm.getSessionFile(), this.scratch()) };
      }
    } else if ('extension' in step) {
      // OMP loads an extension's module when a session starts; "Run my version" is that module
      // loaded into a new AgentSession on the same session manager (the session in memory, as it is).
      if (step.extension === 'edited' || this.running === 'edited') {
        this.running = step.extension;
        await this.replace(() => openSession({ dir: this.runDir, sessionManager: h.sm, headless: h.headless, approvalMode: this.mode, policy: this.policy, ...this.variant(step) }), said, saidFrom);
        replaced = true;
      }
      outcome = { kind: 'extension', running: this.running };
    } else if ('failNextWrite' in step) {
      this.fault ??= await WriteFault.watch(h.sm);
      outcome = { kind: 'fault', armed: this.fault.arm() };
    } else if ('twinTab' in step) return this.twinTab(step, label);
    else throw new Error(`${describeStep(step)} runs on an own extension's runner only (ownReal.ts)`);
    if (!replaced) said.push(...h.ui.said.slice(saidFrom));
    const appended = this.h.sm.getEntries().filter((entry) => !before.has(entry.id)).flatMap((entry) => appendedName(entry) ?? []);
    this.note(this.h);
    return this.trace(step, label, { dialog, said, outcome, appended, ...(meanwhile ? { meanwhile } : {}) }, note);
  }

  private scratchDir: string | null = null;
  /** A folder for copies of the session file read as another process would. */
  private scratch(): string {
    this.scratchDir ??= this.dir('file-reads');
    return this.scratchDir;
  }

  private variantFile: string | null = null;
  /** The extension to load: the edited variant while one runs (an own extension's runner: always its own, ownReal.ts). */
  protected variant(step?: Extract<Step, { extension: unknown }>): Pick<OpenOptions, 'extensionFile' | 'mockModel'> {
    if (step?.extension === 'edited') {
      this.variantFile = `${VARIANTS}/${step.variant}.js`;
      if (!existsSync(this.variantFile)) throw new Error(`${this.variantFile} is missing: scripts/break-it-variants.mjs built no variant for step ${step.variant}`);
    }
    return this.running === 'edited' && this.variantFile ? { extensionFile: this.variantFile } : {};
  }

  /**
   * Another tab: another host process on the same session file, standing before the last
   * reservation. Without a file (no assistant message yet) it finds nothing and starts a new session.
   */
  private async twinTab(step: Extract<Step, { twinTab: unknown }>, label?: string): Promise<NotedStep> {
    const h = this.h;
    const file = h.sm.getSessionFile();
    const found = file !== undefined && existsSync(file);
    const twin = await openSession({ dir: this.dir(`twin-${++this.twins}`), ...(found ? { file } : {}), approvalMode: this.mode, policy: this.policy });
    let seen: Pick<StepTrace, 'dialog' | 'said' | 'outcome' | 'appended'>;
    let twinNote: HostNote['twin'];
    try {
      const twinBefore = new Set(twin.sm.getEntries().map((entry) => entry.id));
      const last = [...twin.sm.getBranch()].reverse().find(isDesk);
      if (last?.parentId) await twin.session.navigateTree(last.parentId, { summarize: false });
      const runs = twin.commandRuns.length;
      twin.answers = { ...twin.answers, confirm: () => true };
      await twin.command(step.twinTab.command);
      const asked = twin.ui.confirms.at(-1);
      const dialog = asked ? { title: asked.title, message: asked.message } : null;
      const outcome = commandOutcome(twin.commandRuns.slice(runs).at(-1));
      this.desks.add(twin.deskEntries().map((entry) => entry.id));
      this.sessions.add([twin.sm.getSessionId()]);
      // What the twin appended, in its file order (this host never sees it: no tab sync here).
      const appended = twin.sm.getEntries().filter((entry) => !twinBefore.has(entry.id)).flatMap((entry) => appendedName(entry) ?? []);
      // The other tab's own Compare: its branch, and the newest seed desk entry off it.
      twinNote = { found, sameSession: twin.sm.getSessionId() === h.sm.getSessionId(), view: branchPair(twin.sm) };
      seen = { dialog, said: [...twin.ui.said], outcome, appended };
    } finally {
      await twin.close();
    }
    this.note(h);
    // What the file holds once the other process has gone (null: neither wrote one).
    return this.trace(step, label, seen, { twin: twinNote, file: await fileView(file, this.scratch()) });
  }

  protected async trace(step: Step, label: string | undefined, seen: Observed, note: Partial<HostNote> = {}): Promise<NotedStep> {
    const h = this.h;
    const branchDesk = h.sm.getBranch().filter(isDesk).map((entry) => entry['data']);
    const file = h.sm.getSessionFile();
    const persistence = this.fault ? { persistence: { reported: [...this.fault.reported()], logged: [...this.fault.logLines()] } } : {};
    const host: HostNote = { fileDeskLines: fileDeskLines(file), ...persistence, ...note };
    return { step: describeStep(step, label), ...seen, status: h.status(), desk: deskView(h), branchDesk, hostFile: file !== undefined && existsSync(file), writeFailure: await writeLatched(h.sm), host };
  }

  private setApproval(mode: ApprovalMode, policy: UserPolicy | null): void {
    this.mode = mode;
    this.policy = policy;
    this.h.settings.set('tools.approvalMode', mode);
    this.h.settings.set('tools.approval', policy === null ? {} : { seed_desk: policy });
  }

  /** Closes the session as the host exits; the file stays where the host wrote it (if it did). */
  async close(): Promise<string | null> {
    const file = this.h.sm.getSessionFile();
    await this.h.close();
    this.fault?.dispose();
    return file !== undefined && existsSync(file) ? file : null;
  }
}

/**
 * The Journal panel's count of seed desk lines: in the host's journal (what the panel lists, as the
 * host would write it), and in the session file on disk (null: the host has written no file yet).
 */
function seedDeskLines(h: Harness): { readonly seedDeskLines: number; readonly inFile: number | null } {
  const lines = (text: string) => text.split('\n').filter((line) => line.includes(`"customType":"${DESK}"`)).length;
  return { seedDeskLines: lines(h.sm.getEntries().map((entry) => JSON.stringify(entry)).join('\n')), inFile: fileDeskLines(h.sm.getSessionFile()) };
}
