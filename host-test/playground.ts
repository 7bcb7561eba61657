import 'fake-indexeddb/auto';
/**
 * The playground's side of the differential (Node, through tsx): `run` drives the worker host
 * (web/src/worker/host.ts on fake-indexeddb, as its unit tests do) through the action scripts and
 * exports each session; `compare` puts the two traces side by side, imports the session files the
 * real host wrote, and checks that the real host opened the playground's exports at the same state.
 */
import { isDeepStrictEqual } from 'node:util';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { asRevision, seededIdSource, type EntryId } from '../domain/ids';
import { isSeedDeskEntry } from '../domain/journal/entry';
import { PlaygroundHost } from '../web/src/worker/host';
import { JournalStore } from '../web/src/worker/store';
import { Checks } from './report';
import { describeStep, loadScripts, normalizeTrace, withRevision, type DeskView, type Outcome, type Script, type StepTrace, type ToolStep, type Trace } from './script';
import type { OpenedView } from './realScripts';

const OUT = fileURLToPath(new URL('./out/diff', import.meta.url));
let databases = 0;

async function freshHost(seed: number): Promise<PlaygroundHost> {
  const store = await JournalStore.open(`host-test-${process.pid}-${++databases}`);
  return PlaygroundHost.start(store, seededIdSource(seed));
}

function deskView(host: PlaygroundHost): DeskView {
  const state = host.currentJournal().state();
  return state.ok
    ? { revision: state.revision, ok: true, agentEnabled: state.snapshot.agentEnabled, quantities: state.snapshot.quantities }
    : { revision: state.revision, ok: false, agentEnabled: null, quantities: null };
}

class PlaygroundRunner {
  private readonly marks = new Map<string, EntryId | null>();
  private readonly revisions: string[] = [];

  constructor(private readonly host: PlaygroundHost) {
    this.revisions.push(deskView(host).revision);
  }

  private noteRevision(): void {
    const revision = deskView(this.host).revision;
    if (this.revisions.at(-1) !== revision) this.revisions.push(revision);
  }

  async tool(step: ToolStep): Promise<Outcome> {
    const current = deskView(this.host).revision;
    const args = withRevision(step.tool, current, this.revisions.at(-2) ?? current);
    let outcome = await this.host.callTool(JSON.stringify(args), false);
    let prompted = false;
    if (outcome.kind === 'approval') {
      prompted = true;
      outcome = await this.host.answerApproval(outcome.callId, step.approve !== false);
    }
    this.noteRevision();
    if (outcome.kind !== 'result') throw new Error(`tool call failed: ${JSON.stringify(outcome)}`);
    return { kind: 'tool', prompted, isError: outcome.isError, text: outcome.text, details: outcome.details };
  }

  async step(step: Script['steps'][number]): Promise<StepTrace> {
    const host = this.host;
    let outcome: Outcome = { kind: 'none' };
    let meanwhile: Outcome | undefined;
    if ('command' in step) {
      const line = await host.runLine(step.command);
      if (line.kind === 'confirm') {
        if (step.meanwhile) meanwhile = await this.tool(step.meanwhile);
        if (step.confirm === false) {
          outcome = { kind: 'cancelled' };
        } else {
          const commit = await host.commitHumanChange(line.change, asRevision(line.revision));
          if (commit.kind === 'failed') throw new Error(commit.message);
          outcome = commit.kind === 'committed' ? { kind: 'committed', text: commit.message } : { kind: 'refused', code: commit.code, text: commit.message };
        }
      } else if (line.kind === 'refused') {
        outcome = { kind: 'refused', code: line.code, text: line.text };
      } else if (line.kind === 'answer' || line.kind === 'usage') {
        outcome = { kind: line.kind, text: line.text };
      } else {
        throw new Error(`${step.command}: unexpected ${JSON.stringify(line)}`);
      }
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
    } else if ('corrupt' in step) {
      await host.appendCorruptSnapshot();
    } else {
      host.setApprovalMode(step.approval.mode);
      host.setApprovalPolicy(step.approval.policy);
    }
    this.noteRevision();
    const branchDesk = host.currentJournal().branch().filter(isSeedDeskEntry).map((entry) => entry['data']);
    return { step: describeStep(step), outcome, ...(meanwhile ? { meanwhile } : {}), desk: deskView(host), branchDesk };
  }
}

/** What the playground shows for a session file it imports: the desk at the leaf and the query answer. */
async function importedView(text: string, seed: number): Promise<OpenedView> {
  const host = await freshHost(seed);
  const report = await host.importSession(new Blob([text]), () => {});
  if (!report.ok) throw new Error(`import refused at line ${report.line}: ${report.message}`);
  const query = await host.runLine('/seeds query');
  return { desk: deskView(host), query: 'text' in query ? query.text : JSON.stringify(query) };
}

async function run(scripts: readonly Script[]): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  for (const [index, script] of scripts.entries()) {
    const host = await freshHost(1000 + index);
    const runner = new PlaygroundRunner(host);
    const steps: StepTrace[] = [];
    for (const step of script.steps) steps.push(await runner.step(step));
    const journal = host.currentJournal();
    const deskIds = journal.entries().filter(isSeedDeskEntry).map((entry) => entry.id);
    writeFileSync(`${OUT}/${script.name}.playground.trace.json`, JSON.stringify(normalizeTrace({ script: script.name, steps }, host.sessionId, deskIds), null, 2));
    writeFileSync(`${OUT}/${script.name}.playground.jsonl`, host.exportSession().jsonl);
  }
  console.log(`Playground side: ${scripts.length} scripts run on the worker host, traces and exports in host-test/out/diff/`);
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

/** The first step where the traces part, shown side by side. */
function firstDifference(playground: Trace, real: Trace): string | null {
  const length = Math.max(playground.steps.length, real.steps.length);
  for (let index = 0; index < length; index++) {
    const mine = playground.steps[index];
    const theirs = real.steps[index];
    if (!isDeepStrictEqual(mine, theirs)) {
      return `step ${index + 1} ${mine?.step ?? theirs?.step}\n  playground: ${JSON.stringify(mine && { ...mine, step: undefined })}\n  real host:  ${JSON.stringify(theirs && { ...theirs, step: undefined })}`;
    }
  }
  return null;
}

async function compare(scripts: readonly Script[]): Promise<void> {
  const checks = new Checks();
  for (const [index, script] of scripts.entries()) {
    await checks.run(`differential: "${script.name}" gives the same outcomes, refusal codes, desks and seed desk entries on the branch in both hosts`, async () => {
      const playground = readJson<Trace>(`${OUT}/${script.name}.playground.trace.json`);
      const real = readJson<Trace>(`${OUT}/${script.name}.real.trace.json`);
      const difference = firstDifference(playground, real);
      if (difference) throw new Error(difference);
      const codes = [...new Set(playground.steps.flatMap((step) => [step.outcome, step.meanwhile]).flatMap((o) => codeOf(o)))];
      return `${playground.steps.length} steps agree${codes.length > 0 ? `; refusals met: ${codes.join(', ')}` : ''}`;
    });
    await checks.run(`differential: the real host's session file for "${script.name}" imports into the playground at the state the real host reopens`, async () => {
      const reopened = readJson<OpenedView>(`${OUT}/${script.name}.real.reopen.json`);
      const imported = await importedView(readFileSync(`${OUT}/${script.name}.real.jsonl`, 'utf8'), 2000 + index);
      if (!isDeepStrictEqual(imported, reopened)) throw new Error(`playground import: ${JSON.stringify(imported)}\nreal reopen:       ${JSON.stringify(reopened)}`);
      return `${reopened.desk.revision}`;
    });
    await checks.run(`differential: the playground's export of "${script.name}" opens in the real host at the state the playground imports`, async () => {
      const opened = readJson<OpenedView>(`${OUT}/${script.name}.playground.opened.json`);
      const expected = await importedView(readFileSync(`${OUT}/${script.name}.playground.jsonl`, 'utf8'), 3000 + index);
      if (!isDeepStrictEqual(opened, expected)) throw new Error(`real host opened: ${JSON.stringify(opened)}\nplayground:       ${JSON.stringify(expected)}`);
      return `${opened.desk.revision}`;
    });
  }
  writeFileSync(fileURLToPath(new URL('./out/compare.json', import.meta.url)), JSON.stringify(checks.results, null, 2));
  process.exitCode = checks.results.every((result) => result.ok) ? 0 : 1;
}

function codeOf(outcome: Outcome | undefined): string[] {
  if (!outcome) return [];
  if (outcome.kind === 'refused') return [outcome.code];
  if (outcome.kind === 'tool' && typeof outcome.details === 'object' && outcome.details !== null && 'code' in outcome.details) return [String(outcome.details.code)];
  return [];
}

const mode = process.argv[2];
const scripts = loadScripts();
if (mode === 'run') await run(scripts);
else if (mode === 'compare') await compare(scripts);
else throw new Error('usage: tsx host-test/playground.ts run|compare');
