import 'fake-indexeddb/auto';
/**
 * The playground's side of the differential (Node, through tsx): `run` drives the worker host
 * (web/src/worker/playgroundHost.ts on fake-indexeddb, as its unit tests do) through the action scripts and
 * the lessons' solutions (pageRunner.ts), and exports each session; `compare` (compare.ts) puts
 * the two traces side by side and checks the session files both ways.
 */
import * as esbuild from 'esbuild-wasm';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { seededIdSource } from '../domain/ids';
import { isSeedDeskEntry } from '../domain/journal/entry';
import { PlaygroundHost } from '../web/src/worker/playgroundHost';
import { JournalStore } from '../web/src/worker/store';
import { compare } from './compare';
import { lessonScripts } from './lessonScripts';
import { pageAgentLoop } from './agentLoopPage';
import { pageModelTurn } from './modelTurnPage';
import { compareOwn } from './ownCompare';
import { runOwnPage } from './ownPlayground';
import { deskView, PlaygroundRunner } from './pageRunner';
import type { OpenedView } from './realScripts';
import { runSteps } from './runnerKit';
import { loadScripts, normalizeTrace, type Script, type StepTrace } from './script';

const OUT = fileURLToPath(new URL('./out/diff', import.meta.url));
let databases = 0;

async function freshHost(seed: number): Promise<{ host: PlaygroundHost; store: JournalStore }> {
  const store = await JournalStore.open(`host-test-${process.pid}-${++databases}`);
  return { host: await PlaygroundHost.start(store, seededIdSource(seed)), store };
}

/** What the playground shows for a session file it imports: the desk at the leaf and the query answer. */
export async function importedView(text: string, seed: number): Promise<OpenedView> {
  const { host } = await freshHost(seed);
  const report = await host.importSession(new Blob([text]), () => {});
  if (!report.ok) throw new Error(`import refused at line ${report.line}: ${report.message}`);
  const query = await host.runLine('/seeds query');
  return { desk: deskView(host), query: 'text' in query ? query.text : JSON.stringify(query) };
}

async function allScripts(): Promise<Script[]> {
  return [...loadScripts(), ...(await lessonScripts())];
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
  console.log(`Playground side: ${scripts.length - failed} of ${scripts.length} scripts run on the worker host, traces and exports in host-test/out/diff/`);
  if (failed > 0) process.exitCode = 1;
}

async function runOne(script: Script, seed: number): Promise<void> {
  const { host, store } = await freshHost(seed);
  const runner = new PlaygroundRunner(host, store, seed);
  let steps: StepTrace[];
  try {
    steps = await runSteps(runner, script);
  } catch (error) {
    throw new Error(`${script.name}, ${error instanceof Error ? error.message : String(error)}`);
  }
  runner.desks.add(host.currentJournal().entries().filter(isSeedDeskEntry).map((entry) => entry.id));
  const trace = normalizeTrace({ script: script.name, omitted: script.omitted ?? [], steps }, runner.sessions.ids, runner.desks.ids);
  writeFileSync(`${OUT}/${script.name}.playground.trace.json`, JSON.stringify(trace, null, 2));
  writeFileSync(`${OUT}/${script.name}.playground.jsonl`, host.exportSession().jsonl);
}

const mode = process.argv[2];
const scripts = mode === 'run' || mode === 'compare' ? await allScripts() : [];
if (mode === 'run-own') await runOwnPage(6000);
else if (mode === 'compare-own') await compareOwn();
else if (mode === 'run') {
  await run(scripts);
  // Check (k)'s page side: a real model's turn recorded by the page's host (modelTurnPage.ts).
  try {
    const turn = await pageModelTurn(fileURLToPath(new URL('./out/model-turn', import.meta.url)), 4000);
    console.log(`Playground side: a model turn (${turn.calls.length} calls) recorded and exported to host-test/out/model-turn/`);
  } catch (error) {
    console.error(`Playground side, model turn: ${error instanceof Error ? error.stack : String(error)}`);
    process.exitCode = 1;
  }
  // Check (l)'s page side: the page's loop against the scripted provider over HTTP (agentLoopPage.ts).
  try {
    const loop = await pageAgentLoop(fileURLToPath(new URL('./out/agent-loop', import.meta.url)), 5000);
    console.log(`Playground side: the agent loop against the scripted provider (${loop.requests.length} requests) exported to host-test/out/agent-loop/`);
  } catch (error) {
    console.error(`Playground side, agent loop: ${error instanceof Error ? error.stack : String(error)}`);
    process.exitCode = 1;
  }
  // Own extensions (issue 37): OMP's examples and the template on the page's host (ownPlayground.ts).
  await runOwnPage(6000);
} else if (mode === 'compare') {
  await compare(scripts, OUT, importedView);
  const exitCode = process.exitCode;
  await compareOwn();
  process.exitCode = exitCode || process.exitCode;
} else throw new Error('usage: tsx host-test/playground.ts run|compare|run-own|compare-own');
// esbuild-wasm's service (the page's compiler) would keep the process alive.
esbuild.stop();
