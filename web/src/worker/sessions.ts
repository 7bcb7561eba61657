import type { EntryId, SessionId } from '$domain/ids';
import { messageRole, sessionFileName } from '$domain/journal/entry';
import { toSessionJsonl } from '$domain/journal/exportJsonl';
import { SessionJournal } from '$domain/journal/journal';
import type { ImportReport, SessionSummary } from '../protocol/messages';
import { leafReturnNotice } from '../protocol/leafNotice';
import type { HostCore } from './hostCore';
import { extensionStops } from './omp/beforeEvents';
import type { Invocation } from './omp/invocation';
import type { SessionChanged } from './sessionChanges';
import { hasAssistantMessage } from './projections';
import { fileSegments, lineStartsOf } from './segments';
import { createSession, loadJournal, storeMaterialized } from './sessionLoad';
import { StorageFailure } from './store';
import { emitSessionShutdown } from './omp/eventEmit';

/**
 * Sessions as the host has them: list, new, switch, fork (`createBranchedSession`), export,
 * import, and reopen — each switch puts the leaf on the session's last appended entry.
 */

const IMPORT_REPORT_LIMIT = 200;

export async function listSessions(core: HostCore): Promise<SessionSummary[]> {
  const sessions = await core.store.listSessions();
  return Promise.all(
    sessions.map(async (session) => ({
      id: session.id,
      title: typeof session.header.title === 'string' ? session.header.title : null,
      parentSession: session.header.parentSession ?? null,
      createdAt: session.createdAt,
      entryCount: session.id === core.sessionId ? core.journal.size : await core.store.countEntries(session.id),
      current: session.id === core.sessionId,
    })),
  );
}

/**
 * Host `newSession`: a fresh identity, no carried state, no grant; its file is written at once.
 * `fresh`: instead the first session of a new host process (`SessionManager.create`, a lesson's
 * start), which the host writes only at its first assistant message.
 */
export async function newSession(core: HostCore, fresh = false, run?: Invocation): Promise<SessionChanged> {
  core.refuseWhileApprovalWaits('start a new session');
  // A lesson's fresh start is a new host process (SessionManager.create), not the /new command: no event.
  const stopped = fresh ? null : await extensionStops(core, { type: 'session_before_switch', reason: 'new' } as const, 'the new session', run);
  if (stopped !== null) return { did: 'cancelled', why: stopped };
  core.useJournal(await createSession(core.store, core.ids, fresh ? {} : { materialized: true }), 'Started a new session: nothing reserved, agent off, a new identity.', { event: 'session_switch', reason: 'new' });
  sessionsChanged(core);
  return { did: 'new-session' };
}

export async function switchSession(core: HostCore, sessionId: SessionId, run?: Invocation): Promise<SessionChanged> {
  core.refuseWhileApprovalWaits('switch sessions');
  const journal = await loadJournal(core.store, sessionId);
  if (!journal) throw new Error(`Session ${sessionId} is not in this browser's journal.`);
  // OMP names the target's file (targetSessionFile); a page session has none.
  const stopped = await extensionStops(core, { type: 'session_before_switch', reason: 'resume' } as const, 'the switch', run);
  if (stopped !== null) return { did: 'cancelled', why: stopped };
  core.useJournal(journal, `Switched to session ${sessionId}; the leaf is on its last appended entry.`, { event: 'session_switch', reason: 'resume' });
  sessionsChanged(core, false);
  return { did: 'switched' };
}

/**
 * Host `createBranchedSession`: the path to `entryId` (the leaf when absent) copied with its ids
 * into a new session whose `parentSession` is this one; the host writes its file at once.
 */
export async function forkSession(core: HostCore, entryId: EntryId | null = core.journal.leafId, run?: Invocation, branchedFrom?: string): Promise<SessionChanged> {
  core.refuseWhileApprovalWaits('fork the session');
  if (entryId !== null && !core.journal.has(entryId)) throw new Error(`Entry ${entryId} is not in this session, so there is no path to fork.`);
  // At the leaf this is OMP's /fork (session_before_switch, reason "fork"); from another entry, OMP's /branch (session_before_branch).
  // `branchedFrom`: a command's ctx.branch(entryId) names the message itself (commandSessions.ts).
  const atLeaf = entryId === core.journal.leafId && branchedFrom === undefined;
  const before = atLeaf ? ({ type: 'session_before_switch', reason: 'fork' } as const) : ({ type: 'session_before_branch', entryId: branchedFrom ?? branchSelection(core.journal, entryId) } as const);
  const stopped = await extensionStops(core, before, 'the fork', run);
  if (stopped !== null) return { did: 'cancelled', why: stopped };
  const fork = core.journal.forkToNewSession(core.ids, entryId);
  await storeMaterialized(core.store, fork);
  const where = atLeaf ? 'the same path and state' : `the path to ${entryId ?? 'the start'}`;
  // OMP's /fork ends in session_switch "fork"; its /branch in session_branch alone (agent-session.ts `branch`), with no file here to name.
  const after = atLeaf ? ({ event: 'session_switch', reason: 'fork' } as const) : ({ event: 'session_branch', previousSessionFile: undefined } as const);
  core.useJournal(fork, `Forked into session ${fork.sessionId}: ${where}, a new identity, so a new revision.`, after);
  sessionsChanged(core);
  return { did: 'forked' };
}

/**
 * The `entryId` OMP's /branch would name for a fork at `at`: OMP branches from a user message and
 * keeps the path to its parent (agent-session.ts `branch`), so a fork at the parent of the user
 * message next on the current branch is that /branch, and names the message. A fork anywhere
 * else has no /branch to match; the event then names the entry forked at ('' for the start).
 */
function branchSelection(journal: SessionJournal, at: EntryId | null): string {
  const path = journal.branch(journal.leafId);
  const next = at === null ? path[0] : path[path.findIndex((entry) => entry.id === at) + 1];
  if (next !== undefined && next.parentId === at && messageRole(next) === 'user') return next.id;
  return at ?? '';
}

export function exportSession(core: HostCore): { fileName: string; jsonl: string } {
  // The same name a fork of this session records as its parentSession.
  return { fileName: sessionFileName(core.journal.header), jsonl: toSessionJsonl(core.journal.header, core.journal.entries()) };
}

/** All or nothing: a file that cannot be read, or a session already here, writes nothing. */
export async function importSession(core: HostCore, file: Blob, onProgress: (phase: string, done: number, total: number) => void): Promise<ImportReport> {
  core.refuseWhileApprovalWaits('import a session');
  onProgress('reading', 0, file.size);
  // The bytes, not file.text(): where each line starts lets the store keep the lines as slices of
  // the file. Decoded as Blob.text() decodes (UTF-8, a BOM dropped, bad bytes replaced), and a
  // '\n' byte ends a line in the bytes exactly where '\n' ends one in the text. (Reading the file
  // as a stream and parsing each chunk as it came measured slower in Chromium, not faster.)
  const bytes = new Uint8Array(await file.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  onProgress('parsing', file.size, file.size);
  // The parser (v1/v2 migration, line checks) loads on the first import only: the worker's first
  // download stays within its budget, and most visits never import.
  const { parseSessionJsonl } = await import('$domain/journal/importJsonl');
  const parsed = parseSessionJsonl(text, core.ids);
  if (!parsed.ok) return { ok: false, line: parsed.error.line, message: parsed.error.message };
  if (await core.store.getSession(parsed.header.id)) {
    return { ok: false, line: 1, message: `Session ${parsed.header.id} is already in this playground. Switch to it in the session list instead.`, existingSessionId: parsed.header.id };
  }
  // The journal is built once: the store keeps the index it derived instead of deriving it again.
  const journal = SessionJournal.fromEntries(parsed.header, parsed.entries);
  // The file's own lines are stored as they are: no entry is serialized again.
  const source = fileSegments(file, lineStartsOf(bytes), parsed.lineOf);
  await storeMaterialized(core.store, journal, (done, total) => onProgress('storing', done, total), source);
  core.useJournal(journal, `Imported session ${journal.sessionId} (${journal.size} entries); the leaf is on the last entry.`, { event: 'session_switch', reason: 'resume' });
  sessionsChanged(core);
  const cap = <T,>(items: readonly T[]) => items.slice(0, IMPORT_REPORT_LIMIT);
  return {
    ok: true,
    sessionId: journal.sessionId,
    entries: journal.size,
    migratedFrom: parsed.migratedFrom,
    hadTitleSlot: parsed.hadTitleSlot,
    skipped: cap(parsed.skipped),
    skippedCount: parsed.skipped.length,
    warnings: cap(parsed.warnings),
    warningCount: parsed.warnings.length,
  };
}

/**
 * The host's reopen: the session read back from storage, the leaf on its last appended entry, the
 * storage latch cleared. A call waiting for approval is dropped, as a restarted host drops it.
 */
export async function reopen(core: HostCore): Promise<void> {
  const behind = core.leafBehind();
  const from = core.journal.leafId;
  const exited = await recordExit(core);
  // OMP's dispose: session_exit recorded, then `session_shutdown` to the extension that is ending.
  await emitSessionShutdown(core.extensions);
  await core.store.reconnect();
  const reloaded = await loadJournal(core.store, core.sessionId);
  if (!reloaded) {
    core.writeFailure = `Session ${core.sessionId} is no longer in the database (another tab may have deleted the database). Start a new session, or import an exported file.`;
    throw new StorageFailure(core.writeFailure);
  }
  // A reopen is a new host process on the same file: the extension starts again (`session_start`),
  // the learner's own one imported afresh (its variables gone, as in OMP).
  if (core.restartExtension) await core.restartExtension();
  core.useJournal(reloaded, null, { event: 'session_start' });
  if (core.pendingApproval) {
    core.notify('warning', `The seed_desk call ${core.pendingApproval.callId} was waiting for approval; the reopen dropped it without a result, as a restarted host would.`);
    core.pendingApproval = null;
  }
  core.notice =
    exited !== null && reloaded.leafId === exited
      ? `Reopened. Closing the session appended a session_exit entry (${exited}) under ${from ?? 'the start'}, as the host does once a session holds an assistant message, so the session reopens there${behind?.navigated ? ': that append, not your move, is what kept your place' : ''}.`
      : behind && from !== reloaded.leafId
        ? leafReturnNotice('reopen', behind, from, reloaded.leafId)
        : `Reopened: the leaf is on the last appended entry (${reloaded.leafId ?? 'none'}), where you stood.`;
  core.notify('info', core.notice);
}

/** The custom entry OMP 18.2.3 appends when it disposes a session that holds an assistant message. */
export const SESSION_EXIT = 'session_exit';

/**
 * Closing a session, as the host does it: once the session holds an assistant message (whether or
 * not its file was written sooner), disposing it appends `session_exit` under the leaf, and a reopen lands there.
 * Measured in host-test; a reload (a killed process) appends nothing. The id, or null.
 */
async function recordExit(core: HostCore): Promise<EntryId | null> {
  if (core.writeFailure !== null || core.opening !== null || !hasAssistantMessage(core.journal)) return null;
  core.appendCustom(SESSION_EXIT, { reason: 'dispose', kind: 'normal', recordedAt: core.ids.now() });
  const id = core.journal.leafId;
  return (await core.settleWrites()) === null ? id : null;
}

/**
 * The database connection is gone (another tab upgraded or deleted it, or the browser closed
 * it). What this tab shows stays in memory; writes stop until a reopen reconnects.
 */
export function storageLost(core: HostCore, reason: string): void {
  core.writeFailure = reason;
  core.notify('error', `${reason} Writes are stopped; reopen the session (or reload the tab) to continue.`);
}

/** The list changed here: this tab's watchers and the other tabs hear of it. */
function sessionsChanged(core: HostCore, tellOtherTabs = true): void {
  core.sessionsVersion++;
  if (tellOtherTabs) core.onSessionsChanged?.();
}
