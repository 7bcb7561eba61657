import 'fake-indexeddb/auto';
/**
 * The playground's side of the differential (Node, through tsx): `run` drives the worker host
 * (web/src/worker/host.ts on fake-indexeddb, as its unit tests do) through the action scripts and
 * the lessons' solutions, and exports each session; `compare` puts the two traces side by side,
 * imports the session files the real host wrote, and checks that the real host opened the
 * playground's exports at the same state.
 */
import { isDeepStrictEqual } from 'node:util';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { seededIdSource, type EntryId } from '../domain/ids';
import { isSeedDeskEntry } from '../domain/journal/entry';
import type { LineOutcome, ToolCallOutcome } from '../web/src/protocol/messages';
import { PlaygroundHost } from '../web/src/worker/host';
import { resolveTarget } from '../web/src/worker/projections';
import { JournalStore } from '../web/src/worker/store';
import { BREAK_REREAD_STEP, PLAYGROUND_RESULT, VARIANT_FILE, variantBuilt, type BreakItResult, type RaceResult } from './breakIt';
import { lessonScripts } from './lessonScripts';
import type { ExtensionFactory } from '../web/src/worker/omp/extensionRuntime';
import { Checks } from './report';
import type { AgentStepper } from '../domain/agents/stepper';
import { appendedName, describeStep, driveAgent, loadScripts, normalizeTrace, Revisions, Seen, type DeskView, type Meanwhile, type Move, type Outcome, type Said, type Script, type Step, type StepTrace, type ToolStep, type Trace } from './script';
import type { OpenedView } from './realScripts';

const OUT = fileURLToPath(new URL('./out/diff', import.meta.url));
let databases = 0;

async function freshHost(seed: number, extension?: ExtensionFactory): Promise<{ host: PlaygroundHost; store: JournalStore }> {
  const store = await JournalStore.open(`host-test-${process.pid}-${++databases}`);
  return { host: await PlaygroundHost.start(store, seededIdSource(seed), extension ? { extension } : {}), store };
}

/** The "Break it" race (host-test/breakIt.ts) on the worker host, with the given extension. */
async function breakItRace(seed: number, extension?: ExtensionFactory): Promise<RaceResult> {
  const { host } = await freshHost(seed, extension);
  const basil = await host.runLine('/seeds reserve basil-genovese 2');
  if (basil.kind !== 'confirm') throw new Error(`break it: ${JSON.stringify(basil)}`);
  await host.answerDialog(basil.dialogId, true);
  const basilEntry = host.currentJournal().leafId;
  const asked = await host.runLine('/seeds reserve bean-scarlet 2');
  if (asked.kind !== 'confirm' || basilEntry === null) throw new Error(`break it: ${JSON.stringify(asked)}`);
  host.moveLeaf(host.currentJournal().parentIdOf(basilEntry));
  const answered = await host.answerDialog(asked.dialogId, true);
  const journal = host.currentJournal();
  return {
    outcome: answered.kind,
    code: answered.kind === 'refused' ? answered.code : null,
    desk: journal.branch().filter(isSeedDeskEntry).at(-1)?.['data'] ?? null,
    deskEntries: journal.entries().filter(isSeedDeskEntry).length,
  };
}

async function runBreakIt(): Promise<void> {
  if (!variantBuilt()) throw new Error(`no ${VARIANT_FILE}: the break-it lesson has no step ${BREAK_REREAD_STEP} with a prepared edit`);
  const variant = (await import(VARIANT_FILE)) as { default: ExtensionFactory };
  const result: BreakItResult = { shipped: await breakItRace(4001), broken: await breakItRace(4002, variant.default) };
  writeFileSync(PLAYGROUND_RESULT, JSON.stringify(result, null, 2));
}

function deskView(host: PlaygroundHost): DeskView {
  const state = host.currentJournal().state();
  return state.ok
    ? { revision: state.revision, ok: true, agentEnabled: state.snapshot.agentEnabled, quantities: state.snapshot.quantities }
    : { revision: state.revision, ok: false, agentEnabled: null, quantities: null };
}

/** A line's outcome in the trace's terms: the kind and data the worker read from the handler's return. */
function lineOutcome(line: LineOutcome): Outcome {
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
    if (core.events.lastSeq - this.from > items.length) throw new Error('the event log dropped items within one step');
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

class PlaygroundRunner {
  private readonly marks = new Map<string, EntryId | null>();
  readonly revisions = new Revisions();
  readonly sessions = new Seen();
  readonly desks = new Seen();
  private readonly log: LogWatch;
  private twins = 0;
  private agent: AgentStepper | null = null;

  constructor(
    private readonly host: PlaygroundHost,
    private readonly store: JournalStore,
    private readonly seed: number,
  ) {
    this.log = new LogWatch(host);
    this.note();
  }

  private note(): void {
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

  private async tool(step: ToolStep): Promise<Outcome> {
    const args = this.revisions.fill(step.tool, () => this.offBranch());
    let outcome: ToolCallOutcome = await this.host.callTool(JSON.stringify(args), false);
    let prompt: string | null = null;
    if (outcome.kind === 'approval') {
      prompt = outcome.prompt;
      outcome = await this.host.answerApproval(outcome.callId, step.approve !== false);
    }
    if (outcome.kind !== 'result') throw new Error(`tool call failed: ${JSON.stringify(outcome)}`);
    this.revisions.noteResult(outcome.details);
    return { kind: 'tool', prompt, isError: outcome.isError, text: outcome.text, details: outcome.details };
  }

  private move(move: Move): void {
    if (move === 'back') this.host.stepBack();
    else this.host.navigate({ by: 'before-last-reservation' });
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
      if (line.kind === 'confirm') {
        dialog = { title: line.title, message: line.message };
        if (step.meanwhile) meanwhile = await this.meanwhile(step.meanwhile);
        line = await host.answerDialog(line.dialogId, step.confirm !== false);
      }
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
      this.move(step.move);
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
    } else if ('newSession' in step) {
      await host.newSession();
    } else {
      return this.twinTab(step, label);
    }
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
    if (line.kind === 'confirm') {
      dialog = { title: line.title, message: line.message };
      line = await twin.answerDialog(line.dialogId, true);
    }
    const said = log.take();
    const appended = twin.currentJournal().entries().filter((entry) => !before.has(entry.id)).flatMap((entry) => appendedName(entry) ?? []);
    this.desks.add(twin.currentJournal().entries().filter(isSeedDeskEntry).map((entry) => entry.id));
    this.log.take();
    this.note();
    return this.trace(step, label, { dialog, said: said.said, outcome: lineOutcome(line), appended }, said.pageOnly);
  }

  private trace(step: Step, label: string | undefined, seen: Pick<StepTrace, 'dialog' | 'said' | 'outcome' | 'appended' | 'meanwhile'>, pageOnly: string[]): StepTrace {
    const host = this.host;
    const branchDesk = host.currentJournal().branch().filter(isSeedDeskEntry).map((entry) => entry['data']);
    return {
      step: describeStep(step, label),
      ...seen,
      status: host.view().status,
      desk: deskView(host),
      branchDesk,
      ...(pageOnly.length > 0 ? { pageOnly } : {}),
    };
  }
}

/** What the playground shows for a session file it imports: the desk at the leaf and the query answer. */
async function importedView(text: string, seed: number): Promise<OpenedView> {
  const { host } = await freshHost(seed);
  const report = await host.importSession(new Blob([text]), () => {});
  if (!report.ok) throw new Error(`import refused at line ${report.line}: ${report.message}`);
  const query = await host.runLine('/seeds query');
  return { desk: deskView(host), query: 'text' in query ? query.text : JSON.stringify(query) };
}

function allScripts(): Script[] {
  return [...loadScripts(), ...lessonScripts()];
}

async function run(scripts: readonly Script[]): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  let failed = 0;
  for (const [index, script] of scripts.entries()) {
    try {
      await runOne(script, 1000 + index);
    } catch (error) {
      failed++;
      console.error(`Playground side: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  try {
    await runBreakIt();
  } catch (error) {
    failed++;
    console.error(`Playground side, break it: ${error instanceof Error ? error.message : String(error)}`);
  }
  console.log(`Playground side: ${scripts.length - failed} of ${scripts.length} scripts run on the worker host, traces and exports in host-test/out/diff/`);
  if (failed > 0) process.exitCode = 1;
}

async function runOne(script: Script, seed: number): Promise<void> {
  const { host, store } = await freshHost(seed);
  const runner = new PlaygroundRunner(host, store, seed);
  const steps: StepTrace[] = [];
  for (const [at, step] of script.steps.entries()) {
    try {
      steps.push(await runner.step(step, script.labels?.[at]));
    } catch (error) {
      throw new Error(`${script.name}, step ${at + 1} ${describeStep(step, script.labels?.[at])}: ${error instanceof Error ? error.stack : String(error)}`);
    }
  }
  runner.desks.add(host.currentJournal().entries().filter(isSeedDeskEntry).map((entry) => entry.id));
  const trace = normalizeTrace({ script: script.name, omitted: script.omitted ?? [], steps }, runner.sessions.ids, runner.desks.ids);
  writeFileSync(`${OUT}/${script.name}.playground.trace.json`, JSON.stringify(trace, null, 2));
  writeFileSync(`${OUT}/${script.name}.playground.jsonl`, host.exportSession().jsonl);
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

/** Fields a page-only note may differ in: never compared. */
function compared(step: StepTrace | undefined): Omit<StepTrace, 'pageOnly'> | undefined {
  if (!step) return undefined;
  const { pageOnly: _pageOnly, ...rest } = step;
  return rest;
}

/** Every step where the traces part, each field that differs shown from both sides. */
function differences(playground: Trace, real: Trace): string[] {
  const found: string[] = [];
  const length = Math.max(playground.steps.length, real.steps.length);
  for (let index = 0; index < length; index++) {
    const mine = compared(playground.steps[index]);
    const theirs = compared(real.steps[index]);
    if (isDeepStrictEqual(mine, theirs)) continue;
    const keys = [...new Set([...Object.keys(mine ?? {}), ...Object.keys(theirs ?? {})])].filter(
      (key) => key !== 'step' && !isDeepStrictEqual(mine?.[key as keyof typeof mine], theirs?.[key as keyof typeof theirs]),
    );
    const fields = keys.map((key) => `    ${key}\n      playground: ${JSON.stringify(mine?.[key as keyof typeof mine])}\n      real host:  ${JSON.stringify(theirs?.[key as keyof typeof theirs])}`);
    found.push(`step ${index + 1} ${mine?.step ?? theirs?.step}\n${fields.join('\n')}`);
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

async function compare(scripts: readonly Script[]): Promise<void> {
  const checks = new Checks();
  for (const [index, script] of scripts.entries()) {
    const lesson = script.name.startsWith('lesson-');
    const what = lesson ? `lesson "${script.name.slice('lesson-'.length)}" (its "Do it for me" solution, setup first)` : `"${script.name}"`;
    await checks.run(`differential: ${what} shows the same dialogs, notifies, events, outcomes, refusal codes, status, desks and appended entries in both hosts, step by step`, async () => {
      const playground = readJson<Trace>(`${OUT}/${script.name}.playground.trace.json`);
      const real = readJson<Trace>(`${OUT}/${script.name}.real.trace.json`);
      const found = differences(playground, real);
      // Both sides silent would compare equal: every /seeds run notifies, so a silent one means the recording broke.
      for (const [side, trace] of [['playground', playground], ['real host', real]] as const) {
        const silent = trace.steps.findIndex((step) => step.outcome.kind === 'command' && !step.said.some((said) => 'notify' in said));
        if (silent >= 0) found.push(`step ${silent + 1} ${trace.steps[silent]!.step}: the ${side} recorded no notify for a /seeds run`);
      }
      const notes: string[] = [];
      if (script.omitted?.length) notes.push(`left out (the real host cannot do it): ${script.omitted.join('; ')}`);
      const pageOnly = (script as { pageOnly?: readonly string[] }).pageOnly;
      if (pageOnly?.length) notes.push(`no step (page panels only): ${pageOnly.join('; ')}`);
      if (found.length > 0) throw new Error(`${found.length} of ${Math.max(playground.steps.length, real.steps.length)} steps differ:\n${found.join('\n')}${notes.length ? `\n${notes.join('\n')}` : ''}`);
      const codes = codesOf(playground);
      return [`${playground.steps.length} steps agree${codes.length > 0 ? `; refusals met: ${codes.join(', ')}` : ''}`, ...notes].join('\n');
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

const mode = process.argv[2];
const scripts = allScripts();
if (mode === 'run') await run(scripts);
else if (mode === 'compare') await compare(scripts);
else throw new Error('usage: tsx host-test/playground.ts run|compare');
