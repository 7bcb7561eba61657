/**
 * The comparison of the differential (Node): the two traces of each script side by side, step by
 * step, and the session files both ways (the real host's file imported into the playground; the
 * playground's export opened in the real host). A comparison that compares nothing fails, and so
 * does a lesson step that left no step in the traces.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import type { LessonScript } from './lessonScripts';
import type { OpenedView } from './realScripts';
import { declaredSteps, DECLARED, undeclaredInLessons } from './declared';
import { assertDeclared, stepsOf, type Assertable, type DeclaredEvidence } from './declaredKit';
import type { NotedTrace } from './hostNotes';
import { Checks } from './report';
import type { Script, StepTrace, Trace } from './script';

type ImportedView = (text: string, seed: number) => Promise<OpenedView>;

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

/** Fields never compared: the page's own notices, the real host's notes (hostNotes.ts). */
function compared(step: StepTrace | undefined): Omit<StepTrace, 'pageOnly'> | undefined {
  if (!step) return undefined;
  const { pageOnly: _pageOnly, host: _host, ...rest } = step as StepTrace & { host?: unknown };
  return rest;
}

/** Every step where the traces part, each field that differs shown from both sides. */
export function differences(playground: Trace, real: Trace): { index: number; text: string }[] {
  const found: { index: number; text: string }[] = [];
  const length = Math.max(playground.steps.length, real.steps.length);
  for (let index = 0; index < length; index++) {
    const mine = compared(playground.steps[index]);
    const theirs = compared(real.steps[index]);
    if (isDeepStrictEqual(mine, theirs)) continue;
    const keys = [...new Set([...Object.keys(mine ?? {}), ...Object.keys(theirs ?? {})])].filter(
      (key) => key !== 'step' && !isDeepStrictEqual(mine?.[key as keyof typeof mine], theirs?.[key as keyof typeof theirs]),
    );
    const fields = keys.map((key) => `    ${key}\n      playground: ${JSON.stringify(mine?.[key as keyof typeof mine])}\n      real host:  ${JSON.stringify(theirs?.[key as keyof typeof theirs])}`);
    found.push({ index, text: `step ${index + 1} ${mine?.step ?? theirs?.step}\n${fields.join('\n')}` });
  }
  return found;
}

function codesOf(trace: Trace): string[] {
  const codes = trace.steps.flatMap((step) => [step.outcome, step.meanwhile]).flatMap((outcome) => {
    if (outcome?.kind === 'command' && outcome.code) return [outcome.code];
    if (outcome?.kind === 'tool' && typeof outcome.details === 'object' && outcome.details !== null && 'code' in outcome.details) return [String(outcome.details.code)];
    return [];
  });
  return [...new Set(codes)];
}

/** Per script: trace steps, those equal, and for a lesson its steps (setup first) and those whose every trace step is equal. */
export interface Tally {
  readonly script: string;
  readonly traceSteps: number;
  readonly equal: number;
  readonly lessonSteps?: number;
  readonly lessonStepsEqual?: number;
}

/** What the comparison left out; each is a failure. */
function leftOut(script: Script, playground: Trace, real: Trace): string[] {
  const problems: string[] = [];
  if (playground.steps.length === 0 || real.steps.length === 0) problems.push(`compared nothing: the playground traced ${playground.steps.length} steps, the real host ${real.steps.length}`);
  if (playground.steps.length !== script.steps.length || real.steps.length !== script.steps.length) problems.push(`the script has ${script.steps.length} steps; the playground traced ${playground.steps.length}, the real host ${real.steps.length}`);
  if (script.omitted?.length) problems.push(`left out: ${script.omitted.join('; ')}`);
  const lesson = (script as Partial<LessonScript>).lessonSteps;
  const missing = lesson?.filter((id) => !script.labels?.includes(id)) ?? [];
  if (missing.length > 0) problems.push(`lesson steps with no step in the comparison: ${missing.join(', ')}`);
  return problems;
}

/** The guard itself, on made-up traces: it must refuse an empty comparison and a lesson step with no step. */
async function guardCheck(checks: Checks): Promise<void> {
  await checks.run('differential: a comparison that compares nothing, or leaves a lesson step out, fails (the guard, on made-up traces)', async () => {
    const empty: Trace = { script: 'empty', omitted: [], steps: [] };
    const script: LessonScript = { name: 'lesson-made-up', about: '', steps: [{ reopen: true }], labels: ['first'], lessonSteps: ['setup', 'first', 'second'] };
    const problems = leftOut(script, empty, empty);
    const expected = ['compared nothing', 'lesson steps with no step in the comparison: setup, second'];
    for (const part of expected) if (!problems.some((problem) => problem.startsWith(part))) throw new Error(`the guard did not say "${part}": ${JSON.stringify(problems)}`);
    return problems.join('; ');
  });
}

/** The declared-step rule itself, on made-up declarations: no assertion, one that reads nothing of the real OMP, one that names no fact — each fails. */
async function declaredGuardCheck(checks: Checks): Promise<void> {
  await checks.run('declared steps: a declaration with no assertion, or one that reads nothing of the real OMP or names no fact, fails (the rule, on made-up declarations)', async () => {
    const trace: NotedTrace = { script: 'made-up', omitted: [], steps: [{ step: 'x', dialog: null, said: [], outcome: { kind: 'none' }, status: '', appended: [], desk: { revision: 'r', ok: true, agentEnabled: false, quantities: {} }, branchDesk: [], hostFile: false, writeFailure: false }] };
    const evidence: DeclaredEvidence = { page: stepsOf(trace, ['x'], 'x'), real: stepsOf(trace, ['x'], 'x'), oneFile: null };
    const madeUp: [Assertable, string][] = [
      [{ script: 'made-up', step: 'x' }, 'without an assertion'],
      [{ script: 'made-up', step: 'x', assertReal: (given: DeclaredEvidence) => [`page: ${given.page.at[0]?.outcome.kind}`] }, 'read nothing of the real OMP'],
      [{ script: 'made-up', step: 'x', assertReal: (given: DeclaredEvidence) => (given.real.at[0]?.outcome.kind ? [] : ['x']) }, 'named no fact'],
      [{ script: 'made-up', step: 'x', oneFile: true, assertReal: (given: DeclaredEvidence) => [`${given.real.at[0]?.outcome.kind}`] }, 'one-file replay has no step'],
    ];
    const said: string[] = [];
    for (const [declared, expected] of madeUp) {
      try {
        assertDeclared(declared, evidence);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (message.includes(expected)) {
          said.push(message);
          continue;
        }
        throw new Error(`the rule refused for another reason than "${expected}": ${message}`);
      }
      throw new Error(`the rule accepted a declaration it must refuse ("${expected}")`);
    }
    return said.join('\n');
  });
}

/** Each declared step of a script: its assertion about the real OMP, on the traces of this run. */
async function declaredChecks(checks: Checks, script: Script, out: string): Promise<void> {
  const mine = DECLARED.filter((declared) => declared.script === script.name);
  const oneFileTrace = `${out}/${script.name}.real-one-file.trace.json`;
  for (const declared of mine) {
    await checks.run(`declared: "${declared.step}" (${script.name}) asserts what OMP 18.2.3 does there: ${declared.real}`, async () => {
      const labels = script.labels;
      const page = readJson<NotedTrace>(`${out}/${script.name}.playground.trace.json`);
      const real = readJson<NotedTrace>(`${out}/${script.name}.real.trace.json`);
      const oneFile = declared.oneFile ? (existsSync(oneFileTrace) ? readJson<NotedTrace>(oneFileTrace) : null) : null;
      if (declared.oneFile && !oneFile) throw new Error(`${oneFileTrace} is missing: the one-file replay did not run`);
      const evidence: DeclaredEvidence = { page: stepsOf(page, labels, declared.step), real: stepsOf(real, labels, declared.step), oneFile: oneFile ? stepsOf(oneFile, labels, declared.step) : null };
      return assertDeclared(declared, evidence).join('\n');
    });
  }
}

export async function compare(scripts: readonly Script[], out: string, importedView: ImportedView): Promise<void> {
  const checks = new Checks();
  const tallies: Tally[] = [];
  await guardCheck(checks);
  await declaredGuardCheck(checks);
  await checks.run('differential: every declared difference belongs to a lesson step that says "in this page" and what the real OMP does', async () => {
    const problems = undeclaredInLessons();
    for (const declared of DECLARED) if (!scripts.some((script) => script.name === declared.script)) problems.push(`${declared.script}/${declared.step}: no such script in this run, so its assertion would never run`);
    if (problems.length > 0) throw new Error(problems.join('\n'));
    return DECLARED.map((declared) => `${declared.script}/${declared.step}: ${declared.real}`).join('\n');
  });
  for (const [index, script] of scripts.entries()) {
    const lesson = (script as Partial<LessonScript>).lessonSteps;
    const what = lesson ? `lesson "${script.name.slice('lesson-'.length)}" (its "Do it for me" solution, setup first, every step)` : `"${script.name}"`;
    await checks.run(`differential: ${what} shows the same dialogs, notifies, events, outcomes, refusal codes, status, desks, appended entries, host file and write latch in both hosts, step by step`, async () => {
      const playground = readJson<Trace>(`${out}/${script.name}.playground.trace.json`);
      const real = readJson<Trace>(`${out}/${script.name}.real.trace.json`);
      const found = differences(playground, real);
      const texts = found.map((difference) => difference.text);
      // Differences at a declared step (declared.ts: the lesson step says so) are shown, not failed;
      // a declared step that no longer differs fails, so the declarations stay true.
      const declared = declaredSteps(script.name);
      // Both sides silent would compare equal: every /seeds run notifies, so a silent one means the
      // recording broke (the page's refused write at a declared step says nothing on purpose).
      for (const [side, trace] of [['playground', playground], ['real host', real]] as const) {
        const silent = trace.steps.findIndex((step, index) => step.outcome.kind === 'command' && !step.said.some((said) => 'notify' in said) && !declared.has(script.labels?.[index] ?? ''));
        if (silent >= 0) texts.push(`step ${silent + 1} ${trace.steps[silent]!.step}: the ${side} recorded no notify for a /seeds run`);
      }
      const differing = new Set(found.map((difference) => script.labels?.[difference.index] ?? ''));
      const undeclared = found.filter((difference) => !declared.has(script.labels?.[difference.index] ?? ''));
      const accepted = found.filter((difference) => declared.has(script.labels?.[difference.index] ?? ''));
      for (const step of declared) if (!differing.has(step)) texts.push(`declared difference at "${step}" no longer differs: remove it from host-test/declared.ts and say so in the lesson`);
      tallies.push({
        script: script.name,
        traceSteps: script.steps.length,
        equal: script.steps.length - found.length,
        ...(lesson ? { lessonSteps: lesson.length, lessonStepsEqual: lesson.filter((id) => !differing.has(id)).length } : {}),
      });
      const problems = leftOut(script, playground, real);
      const failing = [...undeclared.map((difference) => difference.text), ...texts.slice(found.length)];
      if (problems.length > 0 || failing.length > 0) throw new Error([...problems, ...(failing.length ? [`${undeclared.length} of ${script.steps.length} steps differ where no difference is declared:`, ...failing] : [])].join('\n'));
      const codes = codesOf(playground);
      const lessonNote = lesson ? `, covering all ${lesson.length} lesson steps (setup included)` : '';
      const declaredNote = accepted.length > 0 ? `; ${accepted.length} differ at declared steps (${[...declared].join(', ')}), as the lesson says:\n${accepted.map((difference) => difference.text).join('\n')}` : '';
      return `${playground.steps.length - accepted.length} steps agree${lessonNote}${codes.length > 0 ? `; refusals met: ${codes.join(', ')}` : ''}${declaredNote}`;
    });
    await declaredChecks(checks, script, out);
    await checks.run(`differential: the real host's session file for "${script.name}" imports into the playground at the state the real host reopens (or neither host has a file)`, async () => {
      const file = `${out}/${script.name}.real.jsonl`;
      if (!existsSync(file)) {
        const last = readJson<Trace>(`${out}/${script.name}.playground.trace.json`).steps.at(-1);
        if (last?.hostFile) throw new Error('the real host wrote no session file, while the page says the host file is written');
        return 'no file in the real host (no assistant message), and the page says "not written" too';
      }
      const reopened = readJson<OpenedView>(`${out}/${script.name}.real.reopen.json`);
      const imported = await importedView(readFileSync(file, 'utf8'), 2000 + index);
      if (!isDeepStrictEqual(imported, reopened)) throw new Error(`playground import: ${JSON.stringify(imported)}\nreal reopen:       ${JSON.stringify(reopened)}`);
      return `${reopened.desk.revision}`;
    });
    await checks.run(`differential: the playground's export of "${script.name}" opens in the real host at the state the playground imports`, async () => {
      const opened = readJson<OpenedView>(`${out}/${script.name}.playground.opened.json`);
      const expected = await importedView(readFileSync(`${out}/${script.name}.playground.jsonl`, 'utf8'), 3000 + index);
      if (!isDeepStrictEqual(opened, expected)) throw new Error(`real host opened: ${JSON.stringify(opened)}\nplayground:       ${JSON.stringify(expected)}`);
      return `${opened.desk.revision}`;
    });
  }
  writeFileSync(`${out}/tally.json`, JSON.stringify(tallies, null, 2));
  writeFileSync(`${out}/../compare.json`, JSON.stringify(checks.results, null, 2));
  process.exitCode = checks.results.every((result) => result.ok) ? 0 : 1;
}
