import '$domain/zodSetup';
import * as z from 'zod/mini';
import { asSessionId } from '$domain/ids';
import type { CompileProblem, EditRun } from '../../protocol/messages';
import type { HostCore } from '../hostCore';
import { emitSessionShutdown } from '../omp/eventEmit';
import { ExtensionRuntime, type ExtensionFactory } from '../omp/extensionRuntime';
import { createSession, loadJournal } from '../sessionLoad';
import { EDITED_KEY } from './editedKey';
import { loadLearnerRuntime, replaceRuntime } from './editing';
import { removeGuards, withHostGlobals } from './guards';
import { OWN_DOWNLOAD_FILE } from './ownCompile';
import { OWN_KEY, storedActive } from './ownKey';

/**
 * The learner's own extension in the worker's host (issue 37): compiled from their files alone,
 * loaded as the only extension (Seed Desk is not), on a session of its own, so the sessions Seed
 * Desk ran on are untouched; "back to Seed Desk" returns to the session it was on. Kept in the
 * store's `meta` (files, compiled module, its session, the session to return to), so a reload
 * runs it again on its session. Loaded with the compiler, on the first of these requests.
 */

/** How the host names the module in an extension error (the download's name). */
export const OWN_PATH = OWN_DOWNLOAD_FILE;

/** What `meta` keeps under OWN_KEY, as JSON. */
export interface StoredOwn {
  readonly version: 1;
  readonly files: Record<string, string>;
  /** What the learner began from: `template` or an OMP example's name. */
  readonly start: string;
  /** The compiled module (esbuild's output does not depend on anything but the files). */
  readonly code: string;
  /** The own extension's session; null until it first ran. */
  readonly sessionId: string | null;
  /** The Seed Desk session to go back to. */
  readonly returnTo: string | null;
  /** Run again after a reload; false once the learner went back to Seed Desk. */
  readonly active: boolean;
}

type Progress = (phase: string, done: number, total: number) => void;

/** Compiles the learner's files and runs them alone on their own session; a compile or load error changes nothing. */
export async function runOwn(core: HostCore, files: Readonly<Record<string, string>>, start: string, progress: Progress): Promise<EditRun> {
  core.refuseWhileApprovalWaits('replace the extension');
  const { compileOwnFiles, loadCompiler } = await import('./compiler');
  await withHostGlobals(loadCompiler);
  const started = performance.now();
  const compiled = await compileOwnFiles(files);
  const compileMs = Math.round(performance.now() - started);
  if (!compiled.ok) return { kind: 'rejected', problems: compiled.problems };
  const stored = await read(core);
  const back = returnTo(core, stored);
  const problem = await enter(core, compiled.code, stored, progress);
  if (problem) return { kind: 'rejected', problems: [problem] };
  await write(core, { version: 1, files: { ...files }, start, code: compiled.code, sessionId: core.sessionId, returnTo: back, active: true });
  return { kind: 'running', extension: 'own', compileMs };
}

/** After a reload: the stored own extension again, on its session. */
export async function restoreOwn(core: HostCore, progress: Progress): Promise<EditRun> {
  core.ownWaiting = false;
  const stored = await read(core);
  if (!stored?.active || core.own) return { kind: 'running', extension: core.own ? 'own' : core.extensionKind, compileMs: null };
  const problem = await enter(core, stored.code, stored, progress);
  if (!problem) return { kind: 'running', extension: 'own', compileMs: null };
  core.notify('warning', 'Your own extension could not run again after the reload; Seed Desk runs. Your files are still in the Code tab.');
  await write(core, { ...stored, active: false });
  return { kind: 'rejected', problems: [problem] };
}

/**
 * Back to Seed Desk on the session it ran on (or, when that one is gone, a new one): the shipped
 * extension is loaded, and an edited Seed Desk that was running waits for the page to run it
 * again, as after a reload. The own extension's files and session stay stored.
 */
export async function leaveOwn(core: HostCore, shipped: ExtensionFactory): Promise<void> {
  core.refuseWhileApprovalWaits('go back to Seed Desk');
  core.ownWaiting = false;
  const stored = await read(core);
  const back = stored?.returnTo ? await loadJournal(core.store, asSessionId(stored.returnTo)) : null;
  const journal = back ?? (await createSession(core.store, core.ids, { materialized: true }));
  const runtime = await ExtensionRuntime.load(shipped, core);
  await emitSessionShutdown(core.extensions);
  replaceRuntime(core, runtime, 'shipped', null);
  removeGuards();
  core.useJournal(journal, back ? `Back to Seed Desk, on session ${journal.sessionId} as you left it; your own extension and its session are kept.` : 'Back to Seed Desk, on a new session (the one it ran on is gone); your own extension and its session are kept.', { event: 'session_start' });
  core.sessionsVersion++;
  if (stored) await write(core, { ...stored, active: false });
  core.editedWaiting = storedActive(await core.store.getMeta(EDITED_KEY));
}

/** The stored files and what they began from, for the workspace after a reload. */
export async function storedOwn(core: HostCore): Promise<{ files: Record<string, string>; start: string; active: boolean } | null> {
  const stored = await read(core);
  return stored ? { files: stored.files, start: stored.start, active: stored.active } : null;
}

/** The files as one ES module for the real OMP; runs none of their code. */
export async function downloadOwn(files: Readonly<Record<string, string>>): Promise<{ kind: 'bundle'; fileName: string; code: string } | { kind: 'rejected'; problems: CompileProblem[] }> {
  const { compileOwnFiles, loadCompiler } = await import('./compiler');
  await withHostGlobals(loadCompiler);
  const compiled = await compileOwnFiles(files, true);
  return compiled.ok ? { kind: 'bundle', fileName: OWN_DOWNLOAD_FILE, code: compiled.code } : { kind: 'rejected', problems: compiled.problems };
}

/**
 * The module loaded; when it loads, it replaces the running extension and the host is on the own
 * session (the stored one, else a new one): a new host process on that session, so `session_start`.
 * Already there, a changed version replaces the old one on the same session. Null when it runs.
 */
async function enter(core: HostCore, code: string, stored: StoredOwn | null, progress: Progress): Promise<CompileProblem | null> {
  progress('load', 0, 1);
  const loaded = await loadLearnerRuntime(core, code, OWN_PATH);
  if ('problem' in loaded) return loaded.problem;
  const here = core.own;
  const kept = here || !stored?.sessionId ? null : stored.sessionId === core.sessionId ? core.journal : await loadJournal(core.store, asSessionId(stored.sessionId));
  const journal = here ? core.journal : (kept ?? (await createSession(core.store, core.ids, { materialized: true })));
  // The extension that ran (Seed Desk, or the own one's previous version) ends as in OMP's exit: `session_shutdown`.
  await emitSessionShutdown(core.extensions);
  replaceRuntime(core, loaded.runtime, 'own', null);
  core.restartExtension = () => restart(core, code);
  core.editedWaiting = false;
  const said = here
    ? `The host now runs your changed extension (${OWN_PATH}) on its session; Seed Desk is not loaded.`
    : `The host now runs your own extension (${OWN_PATH}) alone on ${kept ? 'its session' : 'a new session'} ${journal.sessionId}; Seed Desk and its session wait until you go back to a lesson.`;
  if (here) {
    core.notify('info', said);
    core.fire({ event: 'session_start' });
  } else {
    core.useJournal(journal, said, { event: 'session_start' });
    core.sessionsVersion++;
    core.onSessionsChanged?.();
  }
  loaded.named();
  return null;
}

/**
 * A reopen is a new host process: the module is imported again and its factory run, so nothing
 * the extension kept outside the session survives (sessions.ts fires `session_start` after).
 * A module that no longer loads (it cannot: the same code loaded before) leaves the old runtime.
 */
async function restart(core: HostCore, code: string): Promise<void> {
  const loaded = await loadLearnerRuntime(core, code, OWN_PATH);
  if ('problem' in loaded) {
    core.notify('warning', `Your extension could not be loaded again for the reopen (${loaded.problem.text}); the one that ran keeps running.`);
    return;
  }
  replaceRuntime(core, loaded.runtime, 'own', null);
  core.restartExtension = () => restart(core, code);
  loaded.named();
}

/** The session to go back to: kept while the own extension runs, else the one the host is on now. */
function returnTo(core: HostCore, stored: StoredOwn | null): string | null {
  return core.own || core.ownWaiting ? (stored?.returnTo ?? null) : core.sessionId;
}

/** The stored record, as the store may hold it (another version of the page may have written it): parsed once. */
const StoredOwnSchema = z.object({
  version: z.literal(1),
  files: z.record(z.string(), z.string()),
  start: z.string(),
  code: z.string(),
  sessionId: z.nullable(z.string()),
  returnTo: z.nullable(z.string()),
  active: z.boolean(),
});

async function read(core: HostCore): Promise<StoredOwn | null> {
  const raw = await core.store.getMeta(OWN_KEY);
  if (raw === undefined) return null;
  try {
    const parsed = StoredOwnSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function write(core: HostCore, own: StoredOwn): Promise<void> {
  return core.store.setMeta(OWN_KEY, JSON.stringify(own));
}
