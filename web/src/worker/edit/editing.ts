/// <reference path="./extensionGraph.d.ts" />
import type { CompileProblem, EditedFrom, EditedVersion, EditRun, ExtensionKind } from '../../protocol/messages';
import { EditedVersionSchema } from '../../protocol/outcomes';
import type { HostCore } from '../hostCore';
import { ExtensionRuntime, type ExtensionFactory } from '../omp/extensionRuntime';
import { editedPolicy, HOST_STATUS_KEY, hostStatusText, LOAD_SETTLE_MS } from './runLimits';
import { DOWNLOAD_FILE } from './compileCore';
import { EDITED_KEY } from './editedKey';
import { versionOf } from './editedVersion';
import { guardsInstalled, installGuards, removeGuards, tripsSoFar, withHostGlobals } from './guards';
import { emitSessionShutdown } from '../omp/eventEmit';

/**
 * The learner's edited extension in the worker's host (issue 23): compile, load, swap it in for
 * the shipped one (the session goes on, on the same journal), keep it in the store's `meta` so a
 * reload runs it again, and swap back. Loaded on the first of these requests, not with the worker.
 * Every request here that runs the learner's code posts the progress phase `load` just before, so
 * the page's watchdog times only the learner's code, never the compiler's download.
 */

/** How the host names the edited module in an extension error. */
export const EDITED_PATH = 'seed-desk-edited.js';

/** What `meta` keeps under EDITED_KEY, as JSON. */
export interface StoredEdit {
  readonly version: 1;
  /** The learner's files that differ from the shipped ones: path → text. */
  readonly files: Record<string, string>;
  /** The compiled module, reused after a reload while `hash` is the graph's. */
  readonly code: string;
  readonly hash: string;
  /** Run again after a reload; false after "Back to the shipped extension" or a stopped hang. */
  readonly active: boolean;
  /** What its text is and what it was changed from (absent in a record stored before issue 36). */
  readonly editedVersion?: EditedVersion;
}

type Progress = (phase: string, done: number, total: number) => void;

/** Compiles the learner's files and runs them in place of the running extension; a compile error changes nothing. */
export async function runEdited(core: HostCore, files: Readonly<Record<string, string>>, progress: Progress, from: EditedFrom = 'last-run'): Promise<EditRun> {
  core.refuseWhileApprovalWaits('replace the extension');
  const [{ compile, loadCompiler }, { graphHash }, graph] = await Promise.all([import('./compiler'), import('./editedModule'), import('virtual:extension-graph')]);
  const version = versionOf(files, graph.files, from, await read(core));
  // Timed apart: the compiler's first download and start-up is not the compile.
  await withHostGlobals(loadCompiler);
  const started = performance.now();
  const compiled = await compile(files);
  const compileMs = Math.round(performance.now() - started);
  if (!compiled.ok) return { kind: 'rejected', problems: compiled.problems };
  progress('load', 0, 1);
  const problem = await load(core, compiled.code, version);
  if (problem) return { kind: 'rejected', problems: [problem] };
  await store(core, { version: 1, files: { ...files }, code: compiled.code, hash: graphHash, active: true, editedVersion: version });
  return { kind: 'running', extension: 'edited', compileMs };
}

/** After a reload: the stored edited version again (compiled again only when the shipped files changed since). */
export async function restoreEdited(core: HostCore, progress: Progress): Promise<EditRun> {
  core.editedWaiting = false;
  const stored = await read(core);
  if (!stored?.active || core.extensionKind === 'edited') return { kind: 'running', extension: core.extensionKind, compileMs: null };
  const { graphHash } = await import('./editedModule');
  let code = stored.code;
  let compileMs: number | null = null;
  if (stored.hash !== graphHash) {
    const { compile, loadCompiler } = await import('./compiler');
    await withHostGlobals(loadCompiler);
    const started = performance.now();
    const compiled = await compile(stored.files);
    compileMs = Math.round(performance.now() - started);
    if (!compiled.ok) return giveUp(core, stored, compiled.problems);
    code = compiled.code;
  }
  progress('load', 0, 1);
  const problem = await load(core, code, stored.editedVersion ?? versionOf(stored.files, (await import('virtual:extension-graph')).files, 'shipped', null));
  if (problem) return giveUp(core, stored, [problem]);
  if (code !== stored.code) await store(core, { ...stored, code, hash: graphHash });
  return { kind: 'running', extension: 'edited', compileMs };
}

/** Back to the shipped extension; the stored edits stay (for the editor) but no longer run on reload. */
export async function useShipped(core: HostCore, shipped: ExtensionFactory): Promise<void> {
  core.refuseWhileApprovalWaits('replace the extension');
  core.editedWaiting = false;
  // While the own extension (issue 37) runs, Seed Desk is not loaded here: only the stored record changes.
  if (core.extensionKind === 'edited' && !core.own) {
    removeGuards();
    await swap(core, await ExtensionRuntime.load(shipped, core), null);
  }
  const stored = await read(core);
  if (stored?.active) await store(core, { ...stored, active: false });
}

/** The stored edited files, for the editor after a reload. */
export async function storedEdits(core: HostCore): Promise<{ files: Record<string, string>; active: boolean } | null> {
  const stored = await read(core);
  return stored ? { files: stored.files, active: stored.active } : null;
}

/** The learner's files as one self-contained ES module (zod bundled in); runs none of their code. */
export async function downloadEdited(files: Readonly<Record<string, string>>): Promise<{ kind: 'bundle'; fileName: string; code: string } | { kind: 'rejected'; problems: CompileProblem[] }> {
  const { compile, loadCompiler } = await import('./compiler');
  await withHostGlobals(loadCompiler);
  const compiled = await compile(files, true);
  return compiled.ok ? { kind: 'bundle', fileName: DOWNLOAD_FILE, code: compiled.code } : { kind: 'rejected', problems: compiled.problems };
}

/** Imports and loads the compiled module; null when it now runs, else why it does not (nothing changed then). */
async function load(core: HostCore, code: string, version: EditedVersion): Promise<CompileProblem | null> {
  const loaded = await loadLearnerRuntime(core, code, EDITED_PATH);
  if ('problem' in loaded) return loaded.problem;
  await swap(core, loaded.runtime, version);
  loaded.named();
  return null;
}

/**
 * The learner's compiled module imported and its factory run under the page's guards and caps
 * (the edited Seed Desk's and, issue 37, their own extension's). `named`: after the swap (which
 * starts the status line over), names again a guarded call the factory swallowed.
 */
export async function loadLearnerRuntime(core: HostCore, code: string, path: string): Promise<{ runtime: ExtensionRuntime; named: () => void } | { problem: CompileProblem }> {
  let runtime: ExtensionRuntime;
  const { loadFactory } = await import('./editedModule');
  // The stubs are in before the module's first line runs (guards.ts), and stay while it is loaded.
  const trips = tripsSoFar().count;
  const wasGuarded = guardsInstalled();
  const report = (text: string) => core.setStatus(HOST_STATUS_KEY, hostStatusText(text));
  installGuards(report);
  try {
    // A module or factory that never settles keeps the worker answering, so the page's watchdog
    // (which listens for silence) cannot see it: the host stops waiting, as it does for a handler.
    runtime = await settledWithin(
      LOAD_SETTLE_MS,
      (async () => ExtensionRuntime.load(await loadFactory(code), core, path, editedPolicy(report)))(),
      `its module or factory returned a promise that did not settle within ${LOAD_SETTLE_MS / 1000} s; the page's host stopped waiting for it (the real OMP would wait).`,
    );
  } catch (error) {
    if (!wasGuarded) removeGuards();
    return { problem: { file: null, line: 0, column: 0, text: `Your extension could not be loaded, so the previous one keeps running: ${error instanceof Error ? error.message : String(error)}` } };
  }
  const named = () => {
    const after = tripsSoFar();
    if (after.count > trips && after.last !== null) core.setStatus(HOST_STATUS_KEY, hostStatusText(after.last));
  };
  return { runtime, named };
}

/** `promise`, or an error saying `said` once `ms` have passed without it settling. */
function settledWithin<T>(ms: number, promise: Promise<T>, said: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(said)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * The host's extension replaced, as a reload of its extensions would: the old one hears
 * `session_shutdown` (OMP loads other code only in a new process, after the old one's dispose),
 * dialogs it still waits on are closed unanswered (its code never resumes, nothing is appended),
 * the status line starts empty, and the new one hears `session_start` on the same journal.
 */
async function swap(core: HostCore, runtime: ExtensionRuntime, version: EditedVersion | null): Promise<void> {
  await emitSessionShutdown(core.extensions);
  replaceRuntime(core, runtime, version === null ? 'shipped' : 'edited', version);
  core.notify('info', version === null ? 'The host runs the shipped extension (seed-desk.js) again.' : `The host now runs ${version.text === 'changed' ? 'your edited extension' : 'your version, whose text is the shipped one,'} (${EDITED_PATH}) on this session.`);
  core.fire({ event: 'session_start' });
}

/** The extension replaced, nothing fired yet: the dialogs it waits on closed unanswered, the status line empty. */
export function replaceRuntime(core: HostCore, runtime: ExtensionRuntime, kind: ExtensionKind | 'own', version: EditedVersion | null): void {
  for (const { run } of core.waiting.values()) {
    core.notify('warning', `The dialog "${run.asked?.request.title ?? ''}" was closed unanswered: the extension that asked it was replaced. Nothing was changed.`);
  }
  core.waiting.clear();
  core.statuses.clear();
  core.pageUi.clear();
  core.extensions = runtime;
  // The own extension (issue 37) replaces Seed Desk, whichever ran: `extensionKind` says which, for the way back.
  core.own = kind === 'own';
  if (kind !== 'own') core.restartExtension = null;
  if (kind !== 'own') core.extensionKind = kind;
  core.editedVersion = version;
}

function giveUp(core: HostCore, stored: StoredEdit, problems: CompileProblem[]): Promise<EditRun> {
  core.notify('warning', 'Your stored edited extension could not run again, so the shipped one runs; your edits are still in the editor.');
  return store(core, { ...stored, active: false }).then(() => ({ kind: 'rejected', problems }));
}

async function read(core: HostCore): Promise<StoredEdit | null> {
  const raw = await core.store.getMeta(EDITED_KEY);
  if (raw === undefined) return null;
  try {
    const value = JSON.parse(raw) as Partial<StoredEdit>;
    if (value.version !== 1 || typeof value.code !== 'string' || typeof value.hash !== 'string' || typeof value.files !== 'object' || value.files === null) return null;
    const files = Object.fromEntries(Object.entries(value.files).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
    const edited = EditedVersionSchema.safeParse(value.editedVersion);
    return { version: 1, files, code: value.code, hash: value.hash, active: value.active === true, ...(edited.success ? { editedVersion: edited.data } : {}) };
  } catch {
    return null;
  }
}

function store(core: HostCore, edit: StoredEdit): Promise<void> {
  return core.store.setMeta(EDITED_KEY, JSON.stringify(edit));
}
