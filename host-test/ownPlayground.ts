/**
 * The page's side of the own-extension comparison (Node, run by `playground.ts run`): each own
 * script's extension bundled by the page's own bundler (ownModule.ts) into host-test/out/own/<name>.js, which the real OMP
 * imports later; the page's host started with it alone (PlaygroundHost.start's `extension`, loaded
 * by the worker's loader) and the script run on it (ownPage.ts). Writes <name>.playground.trace.json,
 * or <name>.playground.error.txt when the page's host could not run it (the comparison says so).
 * Also writes the template as "Download my version" makes it (`template.download.js`).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { seededIdSource } from '../domain/ids';
import { PlaygroundHost } from '../web/src/worker/playgroundHost';
import type { ExtensionFactory } from '../web/src/worker/omp/extensionRuntime';
import { JournalStore } from '../web/src/worker/store';
import { bundleOwn } from './ownModule';
import { OwnPlaygroundRunner } from './ownPage';
import './pageEdits';
import { Answers } from './ownSteps';
import { ownScripts } from './ownScripts';
import { runSteps } from './runnerKit';
import { normalizeTrace, type Script } from './script';

export const OWN_OUT = fileURLToPath(new URL('./out/own', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The extension's text, as the workspace's entry file holds it. */
export function ownText(script: Script): string {
  return readFileSync(`${ROOT}/${script.extension!}`, 'utf8');
}

async function runOne(script: Script, seed: number): Promise<string> {
  const code = await bundleOwn(ownText(script));
  writeFileSync(`${OWN_OUT}/${script.name}.js`, code);
  const store = await JournalStore.open(`host-test-own-${process.pid}-${seed}`);
  // Imported when needed, as the worker does: its `virtual:` imports resolve once pageEdits.ts has registered the hooks.
  const { loadFactory } = await import('./pageEditedModule');
  const host = await PlaygroundHost.start(store, seededIdSource(seed), { extension: (await loadFactory(code)) as ExtensionFactory });
  // A reopen is a new process that loads the module again, as the worker's own path does it
  // (web/src/worker/edit/ownExtension.ts `restart`): the factory runs afresh, its variables gone.
  const { ExtensionRuntime } = await import('../web/src/worker/omp/extensionRuntime');
  const { replaceRuntime } = await import('../web/src/worker/edit/editing');
  const restart = async (): Promise<void> => {
    replaceRuntime(host.core, await ExtensionRuntime.load((await loadFactory(code)) as ExtensionFactory, host.core), host.core.extensionKind, null);
    host.core.restartExtension = restart;
  };
  host.core.restartExtension = restart;
  const runner = new OwnPlaygroundRunner(host, store, seed, new Answers(script.answers ?? []));
  const steps = await runSteps(runner, script);
  const trace = normalizeTrace({ script: script.name, omitted: [], steps }, runner.sessions.ids, [], runner.entries.ids);
  writeFileSync(`${OWN_OUT}/${script.name}.playground.trace.json`, JSON.stringify(trace, null, 2));
  return `${steps.length} steps`;
}

/** Every own script on the page's host; a script the page cannot run leaves its reason for the comparison. */
export async function runOwnPage(seed: number): Promise<void> {
  const started = performance.now();
  rmSync(OWN_OUT, { recursive: true, force: true });
  mkdirSync(OWN_OUT, { recursive: true });
  const template = ownScripts().find((script) => script.name === 'template')!;
  writeFileSync(`${OWN_OUT}/template.download.js`, await bundleOwn(ownText(template), { download: true }));
  console.log(`Playground side: the template's download-style module bundled in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  for (const [index, script] of ownScripts().entries()) {
    const start = performance.now();
    try {
      console.log(`Playground side, own extension ${script.name}: ${await runOne(script, seed + index)} (${((performance.now() - start) / 1000).toFixed(1)} s)`);
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      writeFileSync(`${OWN_OUT}/${script.name}.playground.error.txt`, text);
      console.log(`Playground side, own extension ${script.name}: the page's host could not run it: ${text.split('\n')[0]}`);
    }
  }
  console.log(`Playground side: own extensions bundled and run in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
