import type { EntryId } from '$domain/ids';
import type { HostCore } from '../hostCore';
import { emit } from './eventEmit';
import type { Invocation } from './invocation';

/**
 * OMP's `session_before_switch`, `session_before_branch` and `session_before_tree`
 * (pi-coding-agent/src/session/agent-session.ts `newSession`, `fork`, `switchSession`, `branch`,
 * `navigateTree`): fired before the change; a result with `cancel: true` stops it. OMP's command
 * then just returns false; the page says in one sentence that the extension cancelled it.
 */
export type BeforeEvent =
  | { readonly type: 'session_before_switch'; readonly reason: 'new' | 'resume' | 'fork' }
  | { readonly type: 'session_before_branch'; readonly entryId: string }
  | { readonly type: 'session_before_tree'; readonly preparation: TreePreparation; readonly signal: AbortSignal };

/**
 * Null when the change may go on; else the sentence that says the extension stopped it (also the
 * host's notice and a notification). `run`: the session change the event belongs to, so a dialog a
 * handler opens waits for the page's answer (sessionChanges.ts).
 */
export async function extensionStops(core: HostCore, event: BeforeEvent, action: string, run?: Invocation): Promise<string | null> {
  const answer = await emit(core.extensions, event, run);
  if (!answer?.cancel) return null;
  const text = `The extension cancelled ${action}: its ${event.type} handler returned { cancel: true }, so nothing changed.`;
  core.notice = text;
  core.notify('info', text);
  return text;
}

/** shared-events.ts `TreePreparation`. */
export interface TreePreparation {
  readonly targetId: string;
  readonly oldLeafId: string | null;
  readonly commonAncestorId: string | null;
  /** The old branch's entries after the common ancestor, root first (OMP's `collectEntriesForBranchSummary`; the page never compacts, so no compaction stops it). */
  readonly entriesToSummarize: readonly unknown[];
  /** The page never summarizes a branch it leaves. */
  readonly userWantsSummary: false;
}

/** What a move of the leaf to `targetId` leaves behind, as `navigateTree` prepares it. */
export function treePreparation(core: HostCore, targetId: EntryId): TreePreparation {
  const journal = core.journal;
  const oldPath = journal.branch(journal.leafId);
  const onTarget = new Set(journal.branch(targetId).map((entry) => entry.id));
  let common = -1;
  oldPath.forEach((entry, at) => {
    if (onTarget.has(entry.id)) common = at;
  });
  return {
    targetId,
    oldLeafId: journal.leafId,
    commonAncestorId: common >= 0 ? (oldPath[common]?.id ?? null) : null,
    entriesToSummarize: oldPath.slice(common + 1),
    userWantsSummary: false,
  };
}
