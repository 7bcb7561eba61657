/**
 * The real host's side of the differential (Bun): each action script in a fresh session, traced
 * step by step (realRunner.ts); then the session file the host wrote, if it wrote one, is opened
 * again in the host, and the playground's exports (written by playground.ts before this runs) are
 * opened in the host. Everything observed goes to host-test/out/diff/ for playground.ts to compare.
 */
import { copyFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { openSession } from './omp';
import { deskView } from './realReads';
import { RealRunner } from './realRunner';
import type { Checks } from './report';
import { runSteps } from './runnerKit';
import { normalizeTrace, type DeskView, type Script, type StepTrace } from './script';

export { runSteps };

/** What the host holds when a file is opened: the desk at the leaf and the /seeds query answer. */
export interface OpenedView {
  readonly desk: DeskView;
  readonly query: string;
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
    const copy = `${outDir}/${script.name}.real.jsonl`;
    rmSync(copy, { force: true });
    await checks.run(`differential (real host run): script "${script.name}", ${script.steps.length} steps, traced`, async () => {
      const runDir = dir(`diff-${script.name}`);
      const runner = new RealRunner(await openSession({ dir: runDir }), runDir, dir);
      let steps: StepTrace[] = [];
      let file: string | null = null;
      let trace;
      try {
        steps = await runSteps(runner, script);
        // Read before closing: a disposed session no longer answers for its entries.
        runner.desks.add(runner.h.deskEntries().map((entry) => entry.id));
        trace = normalizeTrace({ script: script.name, omitted: script.omitted ?? [], steps }, runner.sessions.ids, runner.desks.ids);
      } finally {
        file = await runner.close();
      }
      writeFileSync(`${outDir}/${script.name}.real.trace.json`, JSON.stringify(trace, null, 2));
      if (!file) return `${runner.desks.ids.length} seed desk entries; the host wrote no session file (no assistant message in the session)`;
      copyFileSync(file, copy);
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
