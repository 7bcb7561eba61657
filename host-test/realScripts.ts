/**
 * The real host's side of the differential (Bun): each action script in a fresh session, traced
 * step by step; then the session file the host wrote is reopened in the host, and the playground's
 * exports (written by playground.ts before this runs) are opened in the host. Everything observed
 * goes to host-test/out/diff/ for playground.ts to compare.
 */
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { readDesk } from '../extension/deskState';
import type { ExtensionContext } from '../extension/host';
import { openSession, persist, type Harness } from './omp';
import type { Checks } from './report';
import { describeStep, normalizeTrace, withRevision, type DeskView, type Outcome, type Script, type StepTrace, type ToolStep } from './script';

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

function refusedCode(message: string): string | null {
  return /^Refused \(([a-z-]+)\)/.exec(message)?.[1] ?? null;
}

class RealRunner {
  private readonly marks = new Map<string, string | null>();
  private readonly revisions: string[] = [];

  constructor(private readonly h: Harness) {
    this.revisions.push(deskView(h).revision);
  }

  private noteRevision(): void {
    const revision = deskView(this.h).revision;
    if (this.revisions.at(-1) !== revision) this.revisions.push(revision);
  }

  private revisionArgs(args: Record<string, unknown>): Record<string, unknown> {
    const current = deskView(this.h).revision;
    const previous = this.revisions.at(-2) ?? current;
    return withRevision(args, current, previous);
  }

  async tool(step: ToolStep): Promise<Outcome> {
    const h = this.h;
    const prompts = h.ui.selects.length;
    h.answers = { ...h.answers, select: () => (step.approve === false ? 'Deny' : 'Approve') };
    const args = this.revisionArgs(step.tool);
    try {
      const result = await h.tool(args);
      const text = result.content.map((part) => part.text ?? '').join('\n');
      return { kind: 'tool', prompted: h.ui.selects.length > prompts, isError: result.isError === true, text, details: result.details ?? null };
    } catch (error) {
      return { kind: 'tool', prompted: h.ui.selects.length > prompts, isError: true, text: (error as Error).message, details: null };
    } finally {
      this.noteRevision();
    }
  }

  async step(step: Script['steps'][number]): Promise<StepTrace> {
    const h = this.h;
    let outcome: Outcome = { kind: 'none' };
    let meanwhile: Outcome | undefined;
    if ('command' in step) {
      const notes = h.ui.notes.length;
      const confirms = h.ui.confirms.length;
      h.answers = {
        ...h.answers,
        confirm: async () => {
          if (step.meanwhile) meanwhile = await this.tool(step.meanwhile);
          return step.confirm ?? true;
        },
      };
      await h.command(step.command);
      const asked = h.ui.confirms.length > confirms;
      const note = h.ui.notes.slice(notes).at(-1);
      if (!note) throw new Error(`${step.command}: the extension said nothing`);
      const code = refusedCode(note.message);
      if (asked && step.confirm === false) outcome = { kind: 'cancelled' };
      else if (code) outcome = { kind: 'refused', code, text: note.message };
      else if (asked) outcome = { kind: 'committed', text: note.message };
      else outcome = { kind: note.type === 'info' ? 'answer' : 'usage', text: note.message };
    } else if ('tool' in step) {
      outcome = await this.tool(step);
    } else if ('say' in step) {
      h.sm.appendMessage({ role: 'user', content: [{ type: 'text', text: step.say }], timestamp: Date.now() });
    } else if ('mark' in step) {
      this.marks.set(step.mark, h.sm.getLeafId());
    } else if ('leaf' in step) {
      const target = this.marks.get(step.leaf);
      if (target === undefined) throw new Error(`no mark ${step.leaf}`);
      if (target === null) h.sm.resetLeaf();
      else h.sm.branch(target);
    } else if ('corrupt' in step) {
      h.sm.appendCustomEntry(DESK, { version: 1, agentEnabled: false, quantities: { 'basil-genovese': 99 } });
    } else {
      h.settings.set('tools.approvalMode', step.approval.mode);
      h.settings.set('tools.approval', step.approval.policy === null ? {} : { seed_desk: step.approval.policy });
    }
    this.noteRevision();
    const branchDesk = h.sm.getBranch().filter((entry) => entry.type === 'custom' && entry['customType'] === DESK).map((entry) => entry['data']);
    return { step: describeStep(step), outcome, ...(meanwhile ? { meanwhile } : {}), desk: deskView(h), branchDesk };
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
      const h = await openSession({ dir: runDir });
      const runner = new RealRunner(h);
      const steps: StepTrace[] = [];
      let file: string;
      let trace;
      let deskIds: string[];
      try {
        for (const step of script.steps) steps.push(await runner.step(step));
        // Read before closing: a disposed session no longer answers for its entries.
        deskIds = h.deskEntries().map((entry) => entry.id);
        trace = normalizeTrace({ script: script.name, steps }, h.sm.getSessionId(), deskIds);
        file = await persist(h);
      } finally {
        await h.close();
      }
      writeFileSync(`${outDir}/${script.name}.real.trace.json`, JSON.stringify(trace, null, 2));
      copyFileSync(file, `${outDir}/${script.name}.real.jsonl`);
      // Reopen a copy: the host may rewrite the file it opens, the copy for the playground stays as written.
      const reopenDir = dir(`reopen-${script.name}`);
      copyFileSync(file, `${reopenDir}/session.jsonl`);
      writeFileSync(`${outDir}/${script.name}.real.reopen.json`, JSON.stringify(await openedView(reopenDir, `${reopenDir}/session.jsonl`), null, 2));
      return `${deskIds.length} seed desk entries; file ${file.split('/').at(-1)}`;
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
