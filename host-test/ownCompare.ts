/**
 * The own-extension comparison (Node, `playground.ts compare` and `compare-own`): per own script,
 * the page's trace and the real OMP's, step by step (compare.ts `differences`: the words said, the
 * outcomes and tool result texts, the status, the entries appended, and `own`: the session, the UI
 * requests with their titles and options, the custom entries on the branch). One line per script:
 * "same", or exactly what differs. A difference fails, except for a script listed in
 * KNOWN_OWN_DIFFERENCES (ownScripts.ts), printed as "known difference" with its reason; a listed
 * script that no longer differs fails too, so the list is emptied as the page's host catches up.
 * Results go to host-test/out/own-compare.json.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { differences } from './compare';
import { OWN_OUT } from './ownPlayground';
import { KNOWN_OWN_DIFFERENCES, ownScripts } from './ownScripts';
import { Checks } from './report';
import type { StepTrace, Trace } from './script';

function read(file: string): Trace | null {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Trace) : null;
}

/** What differs between the two hosts for one script, or [] when they agree step by step. */
export function ownDifferences(name: string, steps: number): string[] {
  const error = `${OWN_OUT}/${name}.playground.error.txt`;
  if (existsSync(error)) return [`the page's host could not run it: ${readFileSync(error, 'utf8')}`];
  const page = read(`${OWN_OUT}/${name}.playground.trace.json`);
  const real = read(`${OWN_OUT}/${name}.real.trace.json`);
  if (!page || !real) return [`no ${!page ? "page's" : "real OMP's"} trace: that side did not run`];
  // Both sides silent would compare equal: the real OMP must show the extension at work somewhere.
  if (!real.steps.some(atWork)) return ['the real OMP shows the extension doing nothing (no notice, status, UI request, custom entry or tool result): the script or the recording broke'];
  const found = differences(page, real).map((difference) => difference.text);
  if (found.length === 0 && (page.steps.length !== steps || real.steps.length !== steps)) return [`the script has ${steps} steps; the page traced ${page.steps.length}, the real OMP ${real.steps.length}`];
  return found;
}

function atWork(step: StepTrace): boolean {
  const outcome = step.outcome;
  const toolRan = (outcome.kind === 'tool' && !outcome.isError) || (outcome.kind === 'turn' && outcome.calls.some((call) => !call.isError));
  return step.said.length > 0 || step.status !== '' || (step.own?.asked.length ?? 0) > 0 || (step.own?.custom.length ?? 0) > 0 || toolRan;
}

export async function compareOwn(): Promise<void> {
  const checks = new Checks();
  const scripts = ownScripts();
  for (const name of Object.keys(KNOWN_OWN_DIFFERENCES)) if (!scripts.some((script) => script.name === name)) throw new Error(`KNOWN_OWN_DIFFERENCES names ${name}, which no own script runs`);
  for (const script of scripts) {
    const known = KNOWN_OWN_DIFFERENCES[script.name];
    await checks.run(`own extension "${script.name}" (${script.extension}): the same words, UI requests and entries in the page's host and the real OMP, step by step`, async () => {
      const found = ownDifferences(script.name, script.steps.length);
      if (found.length === 0) {
        if (known !== undefined) throw new Error(`same in both hosts now: remove "${script.name}" from KNOWN_OWN_DIFFERENCES (host-test/ownScripts.ts)`);
        return `same (${script.steps.length} steps)`;
      }
      const listed = `${found.length} step${found.length === 1 ? '' : 's'} differ:\n${found.join('\n')}`;
      if (known === undefined) throw new Error(listed);
      return `known difference: ${known}\n${listed}`;
    });
  }
  writeFileSync(`${OWN_OUT}/../own-compare.json`, JSON.stringify(checks.results, null, 2));
  if (!checks.results.every((result) => result.ok)) process.exitCode = 1;
}
