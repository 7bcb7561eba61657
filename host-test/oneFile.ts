/**
 * The declared steps' second real replay (Bun): a script whose declaration asks for it
 * (`oneFile` in declared.ts) runs again in the real OMP with its session on one file from the
 * start. That is how the source lesson launches OMP (`omp … --session "$LAB/seed-session.jsonl"`):
 * OMP 18.2.3 takes `--session <path>` as a resume (src/cli/flag-tables.ts), `SessionManager.open`
 * on a path that does not exist starts a new session there and writes it at once
 * (session-manager.ts `#setSessionFile`: "Explicit but empty/missing path (e.g. --session flag)"),
 * so every entry is on disk as it is appended, before any assistant message. Another tab is then
 * a second process on that same file. Nothing is forced: no ensureOnDisk, no copied entries.
 */
import { writeFileSync } from 'node:fs';
import { DECLARED } from './declared';
import { openSession } from './omp';
import { fileView } from './realFile';
import { RealRunner } from './realRunner';
import { runSteps } from './realScripts';
import type { Checks } from './report';
import { normalizeTrace, type Script } from './script';
import type { NotedStep } from './hostNotes';

export async function oneFileReplays(checks: Checks, scripts: readonly Script[], outDir: string, dir: (name: string) => string): Promise<void> {
  const wanted = new Set(DECLARED.filter((declared) => declared.oneFile).map((declared) => declared.script));
  for (const script of scripts.filter((candidate) => wanted.has(candidate.name))) {
    await checks.run(`declared (real host, one session file): script "${script.name}" with its session opened as omp --session <file> opens it (on disk from the start), ${script.steps.length} steps, traced`, async () => {
      const runDir = dir(`one-file-${script.name}`);
      const file = `${runDir}/sessions/seed-session.jsonl`;
      const runner = new RealRunner(await openSession({ dir: runDir, file }), runDir, dir);
      let steps: NotedStep[] = [];
      let closed: string | null = null;
      try {
        steps = await runSteps(runner, script);
        runner.desks.add(runner.h.deskEntries().map((entry) => entry.id));
      } finally {
        closed = await runner.close();
      }
      // The point of this replay, checked: OMP wrote the session at once, and the first reservation
      // was on disk before any assistant message (there is none in this lesson).
      const first = steps.findIndex((step) => step.outcome.kind === 'command' && step.outcome.result === 'committed');
      if (steps[0]?.hostFile !== true) throw new Error('OMP did not write the session opened with --session <file> at once');
      if (first < 0 || steps[first]?.host?.fileDeskLines !== 1) throw new Error(`the first reservation is not on disk at once: ${JSON.stringify(steps[first]?.host)}`);
      if (steps.some((step) => step.appended.includes('message:assistant'))) throw new Error('an assistant message was appended: the replay no longer shows a session on disk without one');
      const trace = normalizeTrace({ script: script.name, omitted: script.omitted ?? [], steps }, runner.sessions.ids, runner.desks.ids);
      writeFileSync(`${outDir}/${script.name}.real-one-file.trace.json`, JSON.stringify(trace, null, 2));
      // Both processes have exited: the file still holds every seed desk entry either one appended
      // (the first one's later appends land after the second's lines; OMP's rewrite would refuse a
      // file that grew under it, SessionWriteConflictError, rather than overwrite it).
      const end = await fileView(closed ?? undefined, dir(`one-file-end-${script.name}`));
      if (end?.deskEntries !== runner.desks.ids.length) throw new Error(`after both processes exited the file holds ${end?.deskEntries ?? 'no'} seed desk entries; they appended ${runner.desks.ids.length}`);
      return `${runner.desks.ids.length} seed desk entries in ${runner.sessions.ids.length} session(s); the file was on disk from the first step, the first reservation on it at once (no assistant message); after both processes exited it holds all ${end.deskEntries}`;
    });
  }
}
