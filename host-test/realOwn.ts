/**
 * The real OMP's side of the own-extension comparison (Bun): each own script's module
 * (host-test/out/own/<name>.js, bundled by the playground side) loaded alone into the real host as
 * the Seed Desk is (omp.ts `extensionFile`), with pi-ai's mock model for the scripted turns, and the
 * script run by ownReal.ts: <name>.real.trace.json for the comparison (playground.ts compare-own).
 * Then the download-style module of the template loaded as a user installs it.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openSession } from './omp';
import { OwnRealRunner, ScriptedTurns } from './ownReal';
import { Answers } from './ownSteps';
import { ownScripts } from './ownScripts';
import { runSteps } from './realScripts';
import type { Checks } from './report';
import { normalizeTrace } from './script';

const OWN = fileURLToPath(new URL('./out/own', import.meta.url));

export async function realOwn(checks: Checks, dir: (name: string) => string): Promise<void> {
  for (const script of ownScripts()) {
    await checks.run(`own extension "${script.name}" (${script.extension}) runs its script in the real OMP: ${script.steps.length} steps, traced`, async () => {
      const file = `${OWN}/${script.name}.js`;
      if (!existsSync(file)) throw new Error(`${file} is missing: the playground side did not bundle it`);
      const runDir = dir(`own-${script.name}`);
      const turns = new ScriptedTurns();
      const answers = new Answers(script.answers ?? []);
      const runner = new OwnRealRunner(await openSession({ dir: runDir, extensionFile: file, mockModel: (context) => turns.reply(context) }), runDir, dir, answers, turns, file);
      try {
        const steps = await runSteps(runner, script);
        const trace = normalizeTrace({ script: script.name, omitted: [], steps }, runner.sessions.ids, [], runner.entries.ids);
        writeFileSync(`${OWN}/${script.name}.real.trace.json`, JSON.stringify(trace, null, 2));
        writeFileSync(`${OWN}/${script.name}.real.prompts.json`, JSON.stringify(turns.systemPrompts, null, 2));
        // The script says what the real OMP asks: an answer it never took is a request that did not come.
        if (answers.left() > 0) throw new Error(`${answers.left()} of the script's answers were never asked for`);
        const errors = runner.h.runtimeErrors;
        if (errors.length > 0) throw new Error(`the host reported extension errors: ${errors.map(String).join('; ')}`);
        const added = steps.flatMap((step) => (step.outcome.kind === 'turn' && step.outcome.systemPromptAdded !== '' ? [step.outcome.systemPromptAdded] : []));
        return `${steps.length} steps, ${runner.sessions.ids.length} sessions, ${turns.systemPrompts.length} model requests; ${added.length === 0 ? "every request's system prompt was the host's own, nothing added" : `added to the system prompt: ${added.join(' | ')}`}`;
      } finally {
        await runner.close();
      }
    });
  }
  // Issue 37, point 6: the closing note's line.
  await checks.run('download: the template as one downloaded ES module loads in the real OMP, its /note runs and appends its entry', async () => {
    const file = `${OWN}/template.download.js`;
    if (!existsSync(file)) throw new Error(`${file} is missing: the playground side did not write it`);
    const h = await openSession({ dir: dir('own-download'), extensionFile: file, mockModel: true });
    try {
      await h.command('/note take it home');
      const entry = h.sm.getEntries().find((each) => each.type === 'custom' && each['customType'] === 'my-note');
      const said = h.ui.notes.map((note) => note.message);
      if (!entry || !said.includes('Noted on this branch: take it home')) throw new Error(`no my-note entry or notice: entries ${JSON.stringify(h.sm.getEntries().map((each) => each.type))}, said ${JSON.stringify(said)}`);
      return `OMP 18.2.3 loaded template.download.js: /note take it home said "${said.at(-1)}" and appended a my-note entry ${JSON.stringify(entry['data'])}; status "${h.status()}"`;
    } finally {
      await h.close();
    }
  });
}
