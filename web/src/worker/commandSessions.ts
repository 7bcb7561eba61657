import { asSessionId } from '$domain/ids';
import { messageRole } from '$domain/journal/entry';
import type { HostCore } from './hostCore';
import * as navigation from './navigation';
import type { Invocation } from './omp/invocation';
import type { SessionControls } from './omp/runContext';
import { sessionReads } from './omp/sessionReads';
import type { SessionChanged } from './sessionChanges';
import * as sessions from './sessions';

const result = (changed: SessionChanged) => ({ cancelled: changed.did === 'cancelled' });

/**
 * A command's session controls (OMP's `ExtensionCommandContext`, as runtime-init.ts wires them):
 * New, /branch, a move in the tree and a switch, each made the way the page's own buttons make
 * it, inside the command's run, so a before-event's dialog is the command's to wait for, and a
 * cancel answers `{ cancelled: true }`.
 */
export function commandSessions(core: HostCore, run: Invocation): SessionControls {
  return {
    // OMP's `parentSession` names the new file's parent; the page's sessions have no files to name.
    newSession: async (options) => {
      const changed = await sessions.newSession(core, false, run);
      if (changed.did !== 'cancelled' && options?.setup) await options.setup(sessionReads(() => core.journal));
      return result(changed);
    },
    // agent-session.ts `branch`: a user message's id; the new session keeps the path to its parent.
    branch: async (entryId) => {
      const entry = core.journal.get(String(entryId));
      if (entry?.type !== 'message' || messageRole(entry) !== 'user') throw new Error('Invalid entry ID for branching');
      return result(await sessions.forkSession(core, entry.parentId, run, entry.id));
    },
    // The page never summarizes the branch it leaves: `summarize` is not read.
    navigateTree: async (targetId) => result(await navigation.navigate(core, { by: 'id', id: String(targetId) }, run)),
    // OMP takes a session file's path; a page session has none, so its id stands in (ctx.sessionManager.getSessionId()).
    switchSession: async (sessionPath) => result(await sessions.switchSession(core, asSessionId(String(sessionPath)), run)),
  };
}
